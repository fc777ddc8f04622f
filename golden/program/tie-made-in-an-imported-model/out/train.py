"""Class: a model class of another module ties a Parameter (`decoder.token_emb.weight =
encoder.token_emb.weight`) under an argument the script passes as True; moving the model to the
XLA device makes a new Parameter per module, so the tie is made again after the move (TRN250)."""

import torch
import torch_xla
from torch import nn

from models import EncoderDecoder

DEVICE = "xla"


def main():
    model = EncoderDecoder(tie_token_emb=True).to(DEVICE)
    # moving to the XLA device unties shared weights: tie them again
    model.decoder.token_emb.weight = model.encoder.token_emb.weight
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
