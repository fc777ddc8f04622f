# Trimming a padded batch to its longest sequence makes the shape vary again.
import torch


def train(model, loader, optimizer, max_len):
    for batch in loader:
        batch = {k: v.to("xla") for k, v in batch.items()}
        longest = int(batch["attention_mask"].sum(1).max())
        input_ids = batch["input_ids"][:, :longest]
        mask = batch["attention_mask"][:, : batch["attention_mask"].sum(1).max()]
        labels = batch["labels"][:, :max_len]
        window = input_ids[:, 1:-1]
        loss = model(input_ids=input_ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
