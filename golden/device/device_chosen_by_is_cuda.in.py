# Class: a device chosen by a tensor's `is_cuda` (`"cuda" if x.is_cuda else "cpu"`, or the same
# with `torch.device(...)`), used as a device. `is_cuda` is False for an XLA tensor, so rewriting
# the "cuda" arm changes nothing that runs: the masks are made on the CPU beside XLA features
# (measured in a supervised-contrastive loss: 3 graph executions a step against 2 with
# `features.device`). The choice becomes `x.device`, which is that choice on CUDA and on the
# CPU. Found in a contrastive loss and a sparse graph-attention layer. Twin:
# device_chosen_by_is_cuda_twin.
import torch


def contrastive_mask(features, labels):
    device = (torch.device('cuda')
              if features.is_cuda
              else torch.device('cpu'))
    labels = labels.contiguous().view(-1, 1)
    mask = torch.eq(labels, labels.T).float().to(device)
    return mask * torch.eye(features.shape[0]).to(device)


class SpecialLayer(torch.nn.Module):
    def forward(self, input, adj):
        dv = 'cuda' if input.is_cuda else 'cpu'
        return adj @ input + torch.ones(size=(input.size(0), 1), device=dv)
