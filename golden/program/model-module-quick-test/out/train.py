import os

import torch
import torch_xla

from models.gpt import GPT

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


def main(loader):
    model = GPT().to(torch_xla.device())
    optimizer = torch.optim.AdamW(model.parameters())
    device = torch_xla.device()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
