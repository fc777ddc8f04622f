import torch.nn.functional as F
import torch_xla


def train_one_epoch(model, loader, optimizer):
    for data, target in loader:
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
