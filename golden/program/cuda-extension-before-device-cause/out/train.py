# Class: a CUDA extension built at import, in a program that also has a cause of its own for not
# running on the accelerator (StyleGAN2's `device = "cuda"`, kept because it is also used as
# text): the import stops the run first, so the verdict names the build, not the device
# (twin: the build guarded, where the verdict names the device).
import torch
import torch_xla

from op import fused_leaky_relu


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)
        self.bias = torch.nn.Parameter(torch.zeros(8))

    def forward(self, x):
        return fused_leaky_relu(self.linear(x), self.bias).sum(dim=1)


def main():
    device = "cuda"
    print("training on " + device)
    model = Model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(4):
        x = torch.randn(16, 8).to(device)
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
