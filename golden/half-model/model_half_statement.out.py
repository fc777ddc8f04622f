# golden: target=xla-2.5
import torch


def train(model, loader, fp16):
    if fp16:
        model.bfloat16()
    optimizer = torch.optim.AdamW(model.parameters())
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
