import torch
import torch_xla

import util.misc as utils


def train_one_epoch(model, criterion, data_loader, optimizer, device):
    model.train()
    logger = utils.MetricLogger()
    for samples, targets in data_loader:
        samples = samples.to(device)
        loss_dict = criterion(model(samples), targets)
        losses = sum(loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        torch_xla.sync()
        logger.update(**loss_dict)


@torch.no_grad()
def evaluate(model, postprocessors, data_loader, device):
    model.eval()
    for samples, _targets in data_loader:
        postprocessors["bbox"](model(samples.to(device)))
        torch_xla.sync()
