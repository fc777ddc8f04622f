# A corpus moved to the device whole in the function that makes it (`batchify`), and sliced at
# the step's offset in the function the step calls with it (`get_batch`, pytorch/examples'
# word_language_model): reported at the move (TRN056), ported as it is; the slices are taken in
# another function.
import torch
import torch.nn as nn
import torch_xla

bptt = 35


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous().to(torch_xla.device())


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i : i + seq_len], source[i + 1 : i + 1 + seq_len].view(-1)


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
