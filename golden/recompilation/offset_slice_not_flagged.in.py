# Slices at a loop's offset that compile one graph: the slice is moved to the device (its source
# is on the host), the source is visibly on the host, or the slice does not start at the offset.
import numpy as np
import torch

device = torch.device("xla")
corpus = torch.arange(10000).view(-1, 20)
tokens = np.arange(10000)


def get_batch(source, i, n):
    return source[i : i + n].to(device)


def train(model, optimizer, n):
    for step, i in enumerate(range(0, corpus.size(0) - n, n)):
        data = get_batch(corpus, i, n)  # moved in the helper
        window = corpus[i : i + n]
        window = window.to(device)  # moved through a name
        ids = torch.from_numpy(tokens[i : i + n]).to(device)  # NumPy on the host
        head = data[:, : n // 2]  # starts at 0, not at the offset
        loss = model(data, window, ids, head).sum()
        loss.backward()
        optimizer.step()
