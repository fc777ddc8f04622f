# repeat_interleave falls back only with tensor repeats; sparse tensors have no XLA kernels.
import torch
import torch.nn.functional as F
from torch import nn


class Expander(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, sparse=True)
        self.bag = nn.EmbeddingBag(vocab, dim, mode="sum")
        self.dense = nn.Embedding(vocab, dim, sparse=False)

    def forward(self, tokens, lengths, adjacency, weight):
        by_count = torch.repeat_interleave(tokens, lengths.long())
        from_tensor = tokens.repeat_interleave(torch.tensor([1, 2, 3]))
        index = torch.repeat_interleave(lengths)
        doubled = tokens.repeat_interleave(2)
        tripled = torch.repeat_interleave(tokens, repeats=3, dim=0)
        unknown = tokens.repeat_interleave(lengths)
        graph = adjacency.to_sparse()
        product = torch.sparse.mm(graph, weight)
        coo = torch.sparse_coo_tensor(tokens, weight, (4, 4))
        looked_up = F.embedding(tokens, weight, sparse=True)
        return by_count, from_tensor, index, doubled, tripled, unknown, product, coo, looked_up
