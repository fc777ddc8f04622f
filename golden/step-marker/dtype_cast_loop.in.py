import torch
from torch import nn


class IPAdapterAttention(nn.Module):
    """A forward that casts each adapter's output in a loop: no batch moves to a device, so the
    loop is not an evaluation loop and gets no graph cut (diffusers' Flux IP-adapter processor)."""

    def forward(self, query, ip_hidden_states, weight_dtype):
        output = torch.zeros_like(query)
        for hidden, scale in zip(ip_hidden_states, self.scale):
            hidden = self.project(hidden).to(query.dtype)
            hidden = hidden.to(torch.float32, non_blocking=True)
            hidden = hidden.to(dtype=weight_dtype)
            output += scale * hidden
        return output
