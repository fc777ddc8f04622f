# Class: a statement-form device choice in the script (`if torch.cuda.is_available() and not
# args.disable_cuda: args.device = torch.device('cuda') else: args.device =
# torch.device('cpu')`) whose device is read in another module, where the model is moved
# (`DQN(args).to(device=args.device)` in agent.py): the script's own module moves nothing, but
# the program's run shows the check keeps the model on the CPU, so it decides the training
# device: made true (TRN021) and the CUDA device becomes the target's.
# Twin: device-choice-read-by-another-module-twin (the choice is a helper that returns a
# string; it is reported where it is decided).
import argparse

import torch

from agent import Agent

parser = argparse.ArgumentParser()
parser.add_argument("--disable-cuda", action="store_true")
parser.add_argument("--steps", type=int, default=3)
args = parser.parse_args()
if torch.cuda.is_available() and not args.disable_cuda:
    args.device = torch.device("cuda")
    torch.cuda.manual_seed(1)
else:
    args.device = torch.device("cpu")

agent = Agent(args)
for _ in range(args.steps):
    agent.learn(torch.randn(8, 4))
