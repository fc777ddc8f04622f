# The availability check that decides the device is made true and its CPU/MPS fallback dropped
# only where the branch it keeps names no CUDA device the tool cannot rewrite: with
# `torch.device('cuda:{}'.format(args.gpu))` (pytorch/examples legacy/snli) the check and its
# fallbacks are kept and reported (TRN021) beside the blocker (TRN026); a plain "cuda" branch is
# rewritten and its fallback dropped.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
args = parser.parse_args()

if torch.cuda.is_available():
    device = torch.device("cuda:{}".format(args.gpu))
elif torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")

if torch.cuda.is_available():
    eval_device = torch.device("cuda")
else:
    eval_device = torch.device("cpu")

model = torch.nn.Linear(4, 2).to(device)
scorer = torch.nn.Linear(4, 2).to(eval_device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    x, y = x.to(device), y.to(device)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
