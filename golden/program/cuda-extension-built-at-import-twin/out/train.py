# Twin of cuda-extension-built-at-import: the op module builds its CUDA extension only under
# `if torch.cuda.is_available():` and sends every tensor but a CUDA one to its PyTorch path, so
# the import does not raise on a Trainium host and the ported script runs there.
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
    device = torch_xla.device()
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
