import torch
import torch.nn as nn
import torch_xla
from ckpt import load_checkpoint

device = torch_xla.device()


def main():
    model = nn.Linear(4, 2).to(device)
    state = load_checkpoint("init.pt", device)
    model.load_state_dict(state["model"])
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        loss = model(torch.randn(8, 4).to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
