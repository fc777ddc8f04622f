# golden: select=TRN250,TRN251
# Twin of device_choice: the device chosen is never the XLA device (the CPU or the meta
# device): the move keeps the tie, nothing is done.
import torch
from torch import nn


class Transformer(nn.Module):
    def __init__(self, vocab, dim, proj_share=True):
        super().__init__()
        self.trg_emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab, bias=False)
        if proj_share:
            self.proj.weight = self.trg_emb.weight


def main(opt):
    device = torch.device("meta" if opt.dry else "cpu")
    model = Transformer(32, 8, proj_share=opt.proj_share).to(device)
    return model
