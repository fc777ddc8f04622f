# Class: batches of a torchtext iterator (`BucketIterator`, `Iterator`, their `.splits`) are
# made on the iterator's `device=`, the CPU when it is left out; a batch's fields (`batch.src`)
# are those tensors. Here the iterators make them on the model's device (must not fire).
import torch
import torch.nn as nn
import torch_xla
from torchtext.legacy.data import BucketIterator, Field, TabularDataset

SRC = Field(tokenize=str.split, batch_first=True)
TRG = Field(tokenize=str.split, batch_first=True)
train_data, valid_data = TabularDataset.splits(
    path="data",
    train="train.tsv",
    validation="valid.tsv",
    format="tsv",
    fields=[("src", SRC), ("trg", TRG)],
)
SRC.build_vocab(train_data)
TRG.build_vocab(train_data)

device = torch_xla.device()
train_iterator, valid_iterator = BucketIterator.splits(
    (train_data, valid_data), batch_size=32, device=device
)


class Model(nn.Module):
    def __init__(self, src_dim, trg_dim):
        super().__init__()
        self.embedding = nn.Embedding(src_dim, 16)
        self.out = nn.Linear(16, trg_dim)

    def forward(self, src):
        return self.out(self.embedding(src).mean(1))


model = Model(len(SRC.vocab), len(TRG.vocab)).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()

for epoch in range(10):
    for batch in train_iterator:
        src = batch.src
        trg = batch.trg
        optimizer.zero_grad()
        loss = criterion(model(src), trg[:, 0])
        loss.backward()
        optimizer.step()
        torch_xla.sync()
