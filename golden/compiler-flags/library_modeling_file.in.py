"""A modeling module of a library: classes only, no flags written at import time."""

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = nn.MultiheadAttention(config.hidden_size, config.num_heads)

    def forward(self, hidden_states):
        return self.attention(hidden_states, hidden_states, hidden_states)[0]


class EncoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attention = SelfAttention(config)
