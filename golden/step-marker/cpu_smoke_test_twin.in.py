# Twin of cpu_smoke_test: the `__main__` smoke test trains on the device its script decides
# (`torch_xla.device()`), so its step is a graph on XLA and gets its cut after the optimizer
# step.
import torch
import torch_xla
import torchvision

if __name__ == "__main__":
    device = torch_xla.device()
    model = torchvision.models.resnet18().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(100):
        model.zero_grad()
        loss = model(torch.randn((2, 3, 32, 32), device=device)).mean()
        loss.backward()
        optimizer.step()
