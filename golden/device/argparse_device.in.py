import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
parser.add_argument("--backend", default="cuda")
args = parser.parse_args()
model = torch.nn.Linear(2, 2).to(torch.device(args.device))
