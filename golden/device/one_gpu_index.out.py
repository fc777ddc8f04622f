# Class: a module that names one CUDA device with an index and no other (`"cuda:1"`, a parameter's
# default or a variable): the program runs on that one GPU, and on Trainium each process has one
# device, so the index names the target's device.
import torch
import torch_xla


def train(n_epoch: int = 3, device: str = "xla") -> None:
    model = torch.nn.Linear(4, 2)
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(n_epoch):
        x = torch.randn(8, 4).to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train()
