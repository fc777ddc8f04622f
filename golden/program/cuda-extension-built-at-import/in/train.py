# Class: a CUDA extension built when a module the entry point imports is imported (StyleGAN2's
# op/fused_act.py, reached through `from op import ...`): the import raises on a Trainium host,
# before any line of the script runs, so the entry point does not run, with the build as the
# cause, not the device (twin: the build guarded by torch.cuda.is_available()).
import torch

from op import fused_leaky_relu


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)
        self.bias = torch.nn.Parameter(torch.zeros(8))

    def forward(self, x):
        return fused_leaky_relu(self.linear(x), self.bias).sum(dim=1)


def main():
    device = torch.device("cuda")
    model = Model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(4):
        x = torch.randn(16, 8).to(device)
        loss = model(x).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
