# word_language_model (pytorch/examples): a corpus on the device, sliced at the loop's offset.
import torch
import torch.nn as nn

device = torch.device("xla")
bptt = 35


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous().to(device)


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i : i + seq_len]
    target = source[i + 1 : i + 1 + seq_len].view(-1)
    return data, target


train_data = batchify(torch.arange(10000), 20)
model = nn.Embedding(10000, 10000).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train():
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        optimizer.zero_grad()
        loss = criterion(model(data).view(-1, 10000), targets)
        loss.backward()
        optimizer.step()


def train_inline(window):
    for i in range(0, train_data.size(0) - window, window):
        data = train_data[i : i + window]
        loss = model(data).sum()
        loss.backward()
        optimizer.step()
