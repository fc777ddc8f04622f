# Twin of cpu-smoke-test-in-library: the `__main__` smoke test moves its model and inputs to a
# device (the tool makes it the accelerator), so its step trains on XLA and gets its cut.
import torch
import torch_xla
import torchvision


class LARS(torch.optim.SGD):
    pass


if __name__ == "__main__":
    device = torch_xla.device()
    model = torchvision.models.resnet18().to(device)
    optimizer = LARS(model.parameters(), lr=0.1)
    for i in range(100):
        model.zero_grad()
        loss = model(torch.randn((2, 3, 32, 32), device=device)).mean()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
