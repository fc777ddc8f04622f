# Twin of unrolled_forward_loop: the loop over time steps generates (no backward follows it; its
# loss is not differentiated): a sampling loop, cut every step so that the hidden state's graph
# does not grow.
import torch
import torch.nn as nn

device = "cuda"
decoder = nn.GRUCell(8, 8).to(device)


def generate(start, steps):
    hidden = torch.zeros(1, 8, device=device)
    out = start
    for c in range(steps):
        hidden = decoder(out, hidden)
        out = hidden
    return out


with torch.no_grad():
    print(generate(torch.randn(1, 8, device=device), 20).sum().item())
