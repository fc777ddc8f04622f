# Class: sparse COO tensors in model code (a legacy constructor, `.to_sparse()`, `torch.spmm`,
# `torch.sparse.mm`): none can live on the XLA device, a blocker (TRN029).
import torch
from torch import nn


class GraphConvolution(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim, dim))

    def forward(self, x, adj):
        support = torch.mm(x, self.weight)
        return torch.spmm(adj, support)


class Propagate(nn.Module):
    def forward(self, x, indices, values, n):
        adj = torch.sparse.FloatTensor(indices, values, torch.Size([n, n]))
        return torch.sparse.mm(adj, x) + torch.mm(x.t().to_sparse(), x)
