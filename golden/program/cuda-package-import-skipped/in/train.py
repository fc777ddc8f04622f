# Class: a CUDA-only package (NVIDIA apex) imported under `try`/`except ImportError: pass` and
# called on the launch path (the README's launch passes `--syncBN`): apex is absent on
# Trainium, so the import fails there, the handler leaves `apex` unbound, and the call raises
# NameError before the first step. The verdict names the call. Found at first sight in a
# contrastive-learning repository claimed "runs". Twin: cuda-package-import-skipped-twin.
import argparse

import torch

try:
    import apex
except ImportError:
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--syncBN", action="store_true")
    opt = parser.parse_args()
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.BatchNorm1d(8))
    if opt.syncBN:
        model = apex.parallel.convert_syncbn_model(model)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in [torch.randn(4, 8)] * 3:
        x = x.to(device)
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
