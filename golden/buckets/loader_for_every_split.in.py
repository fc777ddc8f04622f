# Class: one DataLoader call that builds the loader of every split, shuffling only the training
# one (`shuffle=split == "train"` in a loop over the splits). drop_last=True there would skip
# the evaluation splits' last samples too (a sentence VAE's valid and test ELBO changed, batch
# K), so it is reported with the condition to pass, not added. Twin:
# loader_for_every_split_twin.
import torch
from torch.utils.data import DataLoader


def train(model, optimizer, datasets, batch_size, epochs):
    for epoch in range(epochs):
        for split in ("train", "valid"):
            data_loader = DataLoader(
                dataset=datasets[split],
                batch_size=batch_size,
                shuffle=split == "train",
            )
            for batch in data_loader:
                loss = model(batch).mean()
                if split == "train":
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
