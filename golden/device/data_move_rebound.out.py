# A device move assigned to a tensor's `.data` (awd-lstm-lm generate.py): on XLA a CPU tensor's
# `.data` cannot take an XLA tensor (RuntimeError), so where the name is the only holder of the
# tensor (a new tensor of this script, read before only through an attribute, outside a loop),
# the assignment becomes a rebinding of the name.
import argparse

import torch
import torch_xla

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
args = parser.parse_args()

model = torch.nn.Embedding(10, 4)
input = torch.rand(1, 1).mul(10).long()
print(input.shape)
if args.cuda:
    model.to(torch_xla.device())
    input = input.data.to(torch_xla.device())


def sample(model, steps):
    token = torch.zeros(1, 1, dtype=torch.long)
    token = token.data.to("xla")
    for _ in range(steps):
        out = model(token)
        token.data.fill_(int(out.argmax()))
    return token


device = torch_xla.device()
seed = torch.zeros(3)
seed = seed.to(device)
