import torch
import torch.nn.functional as F
from layers import GraphConvolution

cuda = torch.cuda.is_available()
indices = torch.tensor([[0, 1, 2], [1, 2, 0]])
adj = torch.sparse_coo_tensor(indices, torch.ones(3), (3, 3)).to_dense()
features = torch.randn(3, 4)
labels = torch.tensor([0, 1, 0])
model = GraphConvolution(4, 2)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
if cuda:
    model.cuda()
    adj = adj.cuda()
    features = features.cuda()
    labels = labels.cuda()

for epoch in range(200):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features, adj), labels)
    loss.backward()
    optimizer.step()
