import math

import torch
from torch import nn
from torch.nn import Module


class BertConfig(object):
    def __init__(self, hidden_size=64, heads=4, layers=2, vocab_size=128):
        self.hidden_size = hidden_size
        self.heads = heads
        self.layers = layers
        self.vocab_size = vocab_size


class BertLayerNorm(Module):
    def __init__(self, size):
        super().__init__()
        self.norm = nn.LayerNorm(size)

    def forward(self, x):
        return self.norm(x)


class BertSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.heads = config.heads
        self.qkv = nn.Linear(config.hidden_size, 3 * config.hidden_size)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.size(-1))
        return torch.matmul(scores.softmax(-1), v)


class BertLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = BertSelfAttention(config)
        self.norm = BertLayerNorm(config.hidden_size)

    def forward(self, x):
        return self.norm(x + self.attention(x))


class BertPreTrainedModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config


class BertForPreTraining(BertPreTrainedModel):
    def __init__(self, config):
        super().__init__(config)
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList([BertLayer(config) for _ in range(config.layers)])
        self.head = nn.Linear(config.hidden_size, config.vocab_size)

    def forward(self, ids):
        x = self.embeddings(ids)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
