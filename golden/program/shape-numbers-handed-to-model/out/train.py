# Class: numbers read from a tensor on the host (`_, _, H, W = x.shape`, `x.size(0)`, a ratio of
# them) handed to a model beside its tensors: they are not tensors, so where they are does not
# decide the verdict.
import torch
import torch_xla
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)

    def forward(self, x, img_size, scale, batch):
        return self.conv(x).mean() * scale + img_size[0] + batch


def main():
    device = torch_xla.device()
    net = Net().to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(10):
        imgs = torch.randn(1, 3, 16, 16).to(device)
        _, _, H, W = imgs.shape
        scale = imgs.shape[3] / W
        loss = net(imgs, (H, W), scale, imgs.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
