import argparse

import torch

import util.misc as utils
from engine import evaluate, train_one_epoch
from models import build_model

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    device = torch.device("cuda")
    model, criterion, postprocessors = build_model(args)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    dataset = [(torch.randn(3, 8, 8), {"labels": torch.tensor([1])}) for _ in range(8)]
    loader = torch.utils.data.DataLoader(
        dataset, batch_size=2, drop_last=True, collate_fn=utils.collate_fn
    )
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, loader, optimizer, device)
        evaluate(model, postprocessors, loader, device)
