# golden: select=TRN250,TRN251
# Class: the move's device is XLA on some launches only (pytorch/examples' word_language_model:
# `torch_xla.device()` if `--accel` else the CPU; attention-is-all-you-need's
# `torch.device('xla' if opt.cuda else 'cpu')` once migrated), the model ties under two tests of
# its parameters, in order. Tying again is harmless where the move kept the tie (the CPU).
import argparse

import torch
import torch_xla
from torch import nn


class Transformer(nn.Module):
    def __init__(self, vocab, dim, proj_share=True, emb_share=True):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, dim)
        self.trg_emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab, bias=False)
        if proj_share:
            self.proj.weight = self.trg_emb.weight
        if emb_share:
            self.src_emb.weight = self.trg_emb.weight


def main(opt):
    device = torch.device("xla" if opt.cuda else "cpu")
    model = Transformer(32, 8, proj_share=opt.proj_share, emb_share=opt.emb_share).to(device)
    # moving to the XLA device unties shared weights: tie them again
    if opt.proj_share:
        model.proj.weight = model.trg_emb.weight
    if opt.emb_share:
        model.src_emb.weight = model.trg_emb.weight
    return model


parser = argparse.ArgumentParser()
parser.add_argument("--accel", action="store_true")
parser.add_argument("--tied", action="store_true")
args = parser.parse_args()
if args.accel:
    accelerator = torch_xla.device()
else:
    accelerator = torch.device("cpu")
lm = Transformer(32, 8, args.tied, False).to(accelerator)
# moving to the XLA device unties shared weights: tie them again
if args.tied:
    lm.proj.weight = lm.trg_emb.weight
