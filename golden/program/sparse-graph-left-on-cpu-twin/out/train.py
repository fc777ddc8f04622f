import torch
import torch.nn.functional as F
import torch_xla
from layers import GraphConvolution

cuda = True
indices = torch.tensor([[0, 1, 2], [1, 2, 0]])
adj = torch.sparse_coo_tensor(indices, torch.ones(3), (3, 3)).to_dense()
features = torch.randn(3, 4)
labels = torch.tensor([0, 1, 0])
model = GraphConvolution(4, 2)
if cuda:
    model.to(torch_xla.device())
    adj = adj.to(torch_xla.device())
    features = features.to(torch_xla.device())
    labels = labels.to(torch_xla.device())
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(200):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features, adj), labels)
    loss.backward()
    optimizer.step()
    torch_xla.sync()
