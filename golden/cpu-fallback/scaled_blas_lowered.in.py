# Twin of scaled_blas: the BLAS-style calls torch-xla lowers (measured) are left alone. `addmm`
# without a scale or with both scales the literal 1, `baddbmm` and `addr` at any scale, and an
# `addmm` whose operands are on the host.
import torch
import torch.nn as nn


class Mixer(nn.Module):
    def forward(self, bias, x, w, batch_bias, batch1, batch2, u, v):
        plain = torch.addmm(bias, x, w)
        one = torch.addmm(bias, x, w, alpha=1, beta=1.0)
        method = bias.addmm(x, w, beta=1)
        batched = torch.baddbmm(batch_bias, batch1, batch2, alpha=-2.0, beta=0.5)
        batch_bias.baddbmm_(batch1, batch2, beta=0.5)
        outer = torch.addr(bias, u, v, alpha=2)
        on_host = torch.addmm(bias.cpu(), x.cpu(), w.cpu(), alpha=-2.0)
        return plain, one, method, batched, outer, on_host
