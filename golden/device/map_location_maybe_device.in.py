# Class: a device chosen by a flag (`torch.device("cuda" if opt.cuda else "cpu")`, its "cuda"
# rewritten; the transformer translate shape) reaches a helper's map_location: "cpu" is right
# on every launch, whichever way the flag goes, where all it loads goes to load_state_dict(),
# so it is rewritten. Twin: map_location_cpu_device (a device that stays the CPU: nothing to
# do).
import argparse

import torch
import torch.nn as nn


def load_model(path, device):
    checkpoint = torch.load(path, map_location=device)
    return checkpoint


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no_cuda", action="store_true")
    parser.add_argument("--model", default="model.chkpt")
    opt = parser.parse_args()
    opt.cuda = not opt.no_cuda
    device = torch.device("cuda" if opt.cuda else "cpu")
    model = nn.Linear(4, 2).to(device)
    model.load_state_dict(load_model(opt.model, device)["model"])
    with torch.no_grad():
        print(model(torch.randn(1, 4).to(device)).cpu())


if __name__ == "__main__":
    main()
