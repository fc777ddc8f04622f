# Class: the tying class called through its module (`import model` ... `model.RNNModel(...)`,
# awd-lstm-lm), the name then rebound to the instance and moved; the tie, under a test of
# `tie_weights`, is made again under the test asked of the script's argument.
import argparse

import torch
import model

parser = argparse.ArgumentParser()
parser.add_argument("--tied", action="store_false")
args = parser.parse_args()

model = model.RNNModel(32, 8, 0.4, args.tied)
model.cuda()
with open("model.pt", "rb") as f:
    model = torch.load(f)
