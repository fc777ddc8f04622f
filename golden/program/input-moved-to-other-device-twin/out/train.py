# Twin: a feature bank on the CPU that only receives `.cpu()` copies of the model's outputs
# and never feeds the model; the inputs go where the model is. Runs on the accelerator.
import argparse

import torch
import torch_xla


def main(args, loader):
    device = torch_xla.device()
    bank_device = "cpu"
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    bank = []
    for x, y in loader:
        x = x.to(device)
        out = model(x)
        loss = torch.nn.functional.cross_entropy(out, y.to(device))
        loss.backward()
        optimizer.step()
        torch_xla.sync()
        optimizer.zero_grad()
        bank.append(out.detach().cpu().to(bank_device))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cpu-feats", action="store_true")
    main(parser.parse_args(), [])
