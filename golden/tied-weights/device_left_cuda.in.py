# golden: select=TRN002,TRN006,TRN250,TRN251
# nanoGPT's train.py: the device still says cuda (a person sets it, TRN006/TRN026): the tie is
# reported, not redone here. `model = torch.compile(model)` comes after the move: no doubt.
import torch
from torch import nn


class GPT(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.wte.weight = self.lm_head.weight


device = 'cuda'
device_type = 'cuda' if 'cuda' in device else 'cpu'
model = GPT(64, 32)
model.to(device)
model = torch.compile(model)

# A name that holds only the CPU device: that move keeps the tie, nothing is reported.
host = 'cpu'
export = GPT(64, 32)
export.to(host)
