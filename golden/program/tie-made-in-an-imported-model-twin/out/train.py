"""Twin: the model class shares a whole submodule (`decoder.token_emb = encoder.token_emb`), not a
Parameter: `.to()` moves that one module once and it stays shared on the XLA device (measured by a
first-sight reviewer), so nothing is tied again."""

import torch
import torch_xla
from torch import nn

from models import EncoderDecoder

DEVICE = "xla"


def main():
    model = EncoderDecoder(tie_token_emb=True).to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(100):
        src = torch.randint(0, 32, (8, 10), device=DEVICE)
        loss = nn.functional.cross_entropy(model(src, src).view(-1, 32), src.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
