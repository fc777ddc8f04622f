import torch_xla
from torch import nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.encoder = nn.Module()
        self.encoder.embed = nn.Embedding(vocab, dim)
        self.decoder = nn.Module()
        self.decoder.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.decoder.embed.weight = self.encoder.embed.weight
        self.head.weight = self.encoder.embed.weight


class Trainer:
    def __init__(self):
        self.device = torch_xla.device()
        self.model = Seq2Seq(32, 8).to(self.device)
