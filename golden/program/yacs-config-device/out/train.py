# Class: a yacs configuration (`CfgNode`) whose defaults module names the training device
# (`_C.DEVICE = "cuda"`), merged with the YAML file and the options of the launch line, and a
# CPU fallback on CUDA's availability in the script. The evaluator follows the merges; the
# fallback's check is made true, and the defaults' "cuda", which the program then puts the
# model on, becomes "xla" in the module that names it (which imports no torch).
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
