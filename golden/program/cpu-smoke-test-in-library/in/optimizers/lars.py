# Class: a CPU smoke test in the `__main__` block of a module, in a program whose trainer moves
# its model (another module places values; nothing this block's own run reaches does). Run as a
# script, the block trains resnet18 on `torch.randn` inputs on the CPU by the author's choice,
# as the verdict says: its step gets no graph cut, which would execute nothing. Twin:
# cpu-smoke-test-in-library-twin.
import torch
import torchvision


class LARS(torch.optim.SGD):
    pass


if __name__ == "__main__":
    model = torchvision.models.resnet18()
    optimizer = LARS(model.parameters(), lr=0.1)
    for i in range(100):
        model.zero_grad()
        loss = model(torch.randn((2, 3, 32, 32))).mean()
        loss.backward()
        optimizer.step()
