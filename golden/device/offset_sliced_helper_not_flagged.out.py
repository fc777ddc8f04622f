# The twin of offset_sliced_helper: `get_batch` moves each slice it takes, so the corpus
# `batchify` makes stays on the host; nothing to report.
import torch
import torch.nn as nn
import torch_xla

bptt = 35


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i : i + seq_len].to(torch_xla.device()), source[i + 1 : i + 1 + seq_len].view(-1).to(torch_xla.device())


train_data = batchify(torch.arange(10000), 20)
model = nn.Embedding(10000, 10000).to(torch_xla.device())
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train():
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        optimizer.zero_grad()
        loss = criterion(model(data).view(-1, 10000), targets)
        loss.backward()
        optimizer.step()


train()
