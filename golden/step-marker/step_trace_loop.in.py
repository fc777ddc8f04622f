import torch
import torch_xla.debug.profiler as xp


def train(model, loader, optimizer, device):
    for step, (x, y) in enumerate(loader):
        # StepTrace's exit cuts the graph: the loop is already ported.
        with xp.StepTrace("train_loop", step_num=step):
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
