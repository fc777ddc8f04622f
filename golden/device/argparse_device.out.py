import argparse

import torch
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="xla", choices=["xla", "cpu"])
parser.add_argument("--backend", default="cuda")
args = parser.parse_args()
model = torch.nn.Linear(2, 2).to(torch.device(args.device))
