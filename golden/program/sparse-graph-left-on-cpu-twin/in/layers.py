# Twin: the adjacency made dense and multiplied with torch.mm (runs on the XLA device,
# measured): the program is ported.
import torch
from torch import nn


class GraphConvolution(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim_in, dim_out))

    def forward(self, x, adj):
        return torch.mm(adj, torch.mm(x, self.weight))
