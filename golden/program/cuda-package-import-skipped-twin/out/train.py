# Twin of cuda-package-import-skipped: the launch leaves `--syncBN` off, so the apex call is
# never made and the program runs; and an import whose handler binds the name (`apex = None`)
# is a test the program can make, not an unbound name.
import argparse

import torch
import torch_xla

try:
    import apex
except ImportError:
    apex = None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--syncBN", action="store_true")
    opt = parser.parse_args()
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8))
    if opt.syncBN:
        model = apex.parallel.convert_syncbn_model(model)
    device = "xla"
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in [torch.randn(4, 8)] * 3:
        x = x.to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
