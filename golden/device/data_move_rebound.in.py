# A device move assigned to a tensor's `.data` (awd-lstm-lm generate.py): on XLA a CPU tensor's
# `.data` cannot take an XLA tensor (RuntimeError), so where the name is the only holder of the
# tensor (a new tensor of this script, read before only through an attribute, outside a loop),
# the assignment becomes a rebinding of the name.
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
args = parser.parse_args()

model = torch.nn.Embedding(10, 4)
input = torch.rand(1, 1).mul(10).long()
print(input.shape)
if args.cuda:
    model.cuda()
    input.data = input.data.cuda()


def sample(model, steps):
    token = torch.zeros(1, 1, dtype=torch.long)
    token.data = token.data.to("cuda")
    for _ in range(steps):
        out = model(token)
        token.data.fill_(int(out.argmax()))
    return token


device = torch.device("cuda")
seed = torch.zeros(3)
seed.data = seed.to(device)
