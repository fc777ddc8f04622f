import os

import torch
import torch_xla

from models.dw_vit import VisionTransformer

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


def main():
    model = VisionTransformer().to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    device = torch_xla.device()
    for _ in range(3):
        x, y = torch.randn(8, 4, 16).to(device), torch.randint(0, 2, (8,)).to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
