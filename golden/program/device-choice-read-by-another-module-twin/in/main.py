# Twin of device-choice-read-by-another-module: the device comes from a helper that returns a
# string (`return "cuda"` under the check): not a statement-form choice the tool rewrites here;
# it stays reported where it is decided.
import argparse

import torch

from agent import Agent
from common.devices import pick_device

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=3)
args = parser.parse_args()
args.device = torch.device(pick_device())

agent = Agent(args)
for _ in range(args.steps):
    agent.learn(torch.randn(8, 4))
