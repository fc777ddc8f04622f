# Class: a yacs configuration merged from a YAML file the tool cannot read. Twin: the launch
# line names a file of the repository, which sets no device: the defaults' "cuda" is the device,
# rewritten to "xla", and the entry point runs.
import argparse

import torch
import torch.nn as nn
import torch_xla

from config.defaults import get_cfg_defaults


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config-file", default="")
    parser.add_argument("opts", default=None, nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cfg = get_cfg_defaults()
    if args.config_file:
        cfg.merge_from_file(args.config_file)
    cfg.merge_from_list(args.opts)
    if not True:
        cfg.DEVICE = "cpu"
    cfg.freeze()
    device = torch.device(cfg.DEVICE)
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.SOLVER.LR)
    for step in range(cfg.SOLVER.STEPS):
        x = torch.randn(8, 4).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
