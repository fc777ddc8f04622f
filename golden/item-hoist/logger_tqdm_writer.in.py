# golden: log-interval=50
import logging

from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

logger = logging.getLogger(__name__)


def train(model, loader, optimizer, scheduler):
    writer = SummaryWriter()
    pbar = tqdm(loader)
    global_step = 0
    for batch in pbar:
        global_step += 1
        outputs = model(**batch)
        loss = outputs.loss
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        logger.info("step %d loss %.4f", global_step, loss.item())
        pbar.set_postfix(loss=loss.item())
        writer.add_scalar("train/loss", loss.item(), global_step)
