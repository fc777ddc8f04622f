import argparse

import torch
import torch_xla

from util import save_model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--ckpt", default="")
    opt = parser.parse_args()
    device = "xla"
    model = torch.nn.Linear(8, 2).to(device)
    if opt.ckpt:
        ckpt = torch.load(opt.ckpt, map_location="cpu")
        model.load_state_dict(ckpt["model"])
    optimizer = torch.optim.SGD(model.parameters(), lr=opt.lr)
    for x, y in [(torch.randn(4, 8), torch.randint(0, 2, (4,)))] * 3:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()
    save_model(model, optimizer, opt, 1, "last.pth")


if __name__ == "__main__":
    main()
