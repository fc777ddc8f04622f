# Twin of forward-converts-its-inputs: the helper the forward converts with keeps the tensor
# on the CPU (`cuda=False`), so the input built on the CPU stays there: does not run.
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
        roi_indices = totensor(roi_indices, cuda=False).float()
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
