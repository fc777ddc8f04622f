# A model whose convolutions are weight-normed (TCN's TemporalBlock): trained by train.py, so
# each `weight_norm` call runs `aten::_weight_norm_interface` on the CPU in every step (TRN055).
# The twin has the same model that only an inference script runs.
import torch.nn as nn
from torch.nn.utils import weight_norm


class TemporalBlock(nn.Module):
    def __init__(self, n_in, n_out, kernel_size):
        super().__init__()
        self.conv1 = weight_norm(nn.Conv1d(n_in, n_out, kernel_size, padding=kernel_size // 2))
        self.conv2 = weight_norm(nn.Conv1d(n_out, n_out, kernel_size, padding=kernel_size // 2))
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.conv2(self.relu(self.conv1(x))))


class TCN(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.block = TemporalBlock(n_in, 16, 3)
        self.head = nn.Linear(16, n_out)

    def forward(self, x):
        return self.head(self.block(x).mean(-1))
