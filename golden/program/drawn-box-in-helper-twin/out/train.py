# The twin of drawn-box-in-helper: the same helpers in another module, but the step pastes the
# drawn box into the CPU batch before `.cuda()` (the fix), and pastes into the device batch only
# a box derived from the shape and a constant (the same box every step).
import numpy as np
import torch
import torch.nn as nn
import torch_xla
import torch_xla.distributed.parallel_loader as pl

from utils import center_bbox, rand_bbox

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
model = model.to(torch_xla.device())
criterion = nn.CrossEntropyLoss().to(torch_xla.device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(
    [(torch.rand(3, 32, 32), 1)] * 16, batch_size=4, shuffle=True, drop_last=True
)


def train(beta):
    device = torch_xla.device()
    for input, target in loader:
        lam = np.random.beta(beta, beta)
        rand_index = torch.randperm(input.size()[0])
        bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)
        input[:, :, bbx1:bbx2, bby1:bby2] = input[rand_index, :, bbx1:bbx2, bby1:bby2]
        input, target, target_b = input.to(device), target.to(device), target[rand_index].to(device)
        output = model(input)
        loss = criterion(output, target) * lam + criterion(output, target_b) * (1.0 - lam)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def train_center(loader):
    device = torch_xla.device()
    for input, target in pl.MpDeviceLoader(loader, device):
        bbx1, bby1, bbx2, bby2 = center_bbox(input.size(), 0.5)
        input[:, :, bbx1:bbx2, bby1:bby2] = input.flip(0)[:, :, bbx1:bbx2, bby1:bby2]
        output = model(input)
        optimizer.zero_grad()
        criterion(output, target).backward()
        optimizer.step()


if __name__ == "__main__":
    for epoch in range(2):
        train(1.0)
        train_center(loader)
