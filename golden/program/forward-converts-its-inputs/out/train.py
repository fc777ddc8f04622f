# Class: a module whose `forward` first converts an input it is handed as a host array or a CPU
# tensor with a helper that moves it (`rois = totensor(rois).float()`): the step's input is
# where the forward puts it, not where the caller built it.
import numpy as np
import torch
import torch_xla
from torch import nn


def totensor(data, cuda=True):
    if isinstance(data, np.ndarray):
        tensor = torch.from_numpy(data)
    if isinstance(data, torch.Tensor):
        tensor = data.detach()
    if cuda:
        tensor = tensor.to(torch_xla.device())
    return tensor


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 2)

    def forward(self, x, rois, roi_indices):
        roi_indices = totensor(roi_indices).float()
        rois = totensor(rois).float()
        return self.fc(torch.cat([roi_indices[:, None], rois], dim=1)) + x.mean()


def main():
    head = Head().to(torch_xla.device())
    optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
    device = torch_xla.device()
    for _ in range(10):
        x = torch.randn(8, 4).to(device)
        rois = np.random.rand(16, 4).astype(np.float32)
        indices = torch.zeros(len(rois))
        loss = head(x, rois, indices).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
