# Class: a one-file trainer whose model multiplies a sparse adjacency (torch.spmm): read alone,
# with no program around it, it is left on the CPU too (rewrites not applied; TRN029).
import torch
import torch.nn.functional as F
from torch import nn


class GraphConvolution(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(dim_in, dim_out))

    def forward(self, x, adj):
        return torch.spmm(adj, torch.mm(x, self.weight))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
indices = torch.tensor([[0, 1, 2], [1, 2, 0]])
adj = torch.sparse_coo_tensor(indices, torch.ones(3), (3, 3)).to(device)
features, labels = torch.randn(3, 4).to(device), torch.tensor([0, 1, 0]).to(device)
model = GraphConvolution(4, 2).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(200):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features, adj), labels)
    loss.backward()
    optimizer.step()
