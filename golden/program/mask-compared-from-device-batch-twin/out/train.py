import argparse

import torch
import torch_xla
from torch import nn

from utils.data_utils import get_data_loaders, get_src_and_trg, get_src_mask


class Translator(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src, trg, src_mask):
        h = self.embed(src).mean(1, keepdim=True) * src_mask.float().mean()
        return self.out(self.embed(trg) + h).log_softmax(-1)


def train_loop(model, optimizer, loader, pad_id):
    device = next(model.parameters()).device
    for batch in loader:
        src, trg_in, trg_gt = get_src_and_trg(batch)
        src_mask, _ = get_src_mask(src, pad_id)
        out = model(src, trg_in, src_mask)
        loss = nn.functional.nll_loss(out.reshape(-1, out.shape[-1]), trg_gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def main(config):
    device = torch_xla.device()
    train_loader, val_loader, src_field, trg_field = get_data_loaders(config.path, config.batch_size, device)
    model = Translator(1000, 64).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(config.epochs):
        train_loop(model, optimizer, train_loader, 1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", default="data")
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=2)
    main(parser.parse_args())
