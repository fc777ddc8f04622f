# Twin of train_loader_not_shuffled: a loader that shuffles every epoch, and one whose sampler
# draws the order (a DistributedSampler shuffles by default): the samples left out change from
# epoch to epoch, so drop_last=True is added.
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

dataset = TensorDataset(torch.randn(103, 16), torch.randint(0, 2, (103,)))


def train(model, optimizer, epochs=3, distributed=False):
    if distributed:
        train_loader = DataLoader(dataset, batch_size=16, sampler=DistributedSampler(dataset), drop_last=True)
    else:
        train_loader = DataLoader(dataset, batch_size=16, shuffle=True, drop_last=True)
    for epoch in range(epochs):
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
