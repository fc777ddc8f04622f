# One sequence a step from a list of sequences of different lengths (TRN444): TCN's poly_music
# (a list of piano rolls loaded from a .mat file, each shifted by one for next-step targets)
# and its LAMBADA evaluation (a list of token-id lists, one passage a step); a list of token
# tensors built from the lines of a file, iterated directly.
import numpy as np
import torch
import torch.nn as nn
from scipy.io import loadmat

device = torch.device("xla")
model = nn.Linear(88, 88).to(device)
optimizer = torch.optim.Adam(model.parameters())
X_train = [torch.Tensor(x) for x in loadmat("./mdata/Nottingham.mat")["traindata"][0]]


def train():
    train_idx_list = np.arange(len(X_train), dtype="int32")
    np.random.shuffle(train_idx_list)
    for idx in train_idx_list:
        data_line = X_train[idx]
        x, y = data_line[:-1].to(device), data_line[1:].to(device)
        optimizer.zero_grad()
        output = torch.sigmoid(model(x.unsqueeze(0))).squeeze(0)
        loss = nn.functional.binary_cross_entropy(output, y)
        loss.backward()
        optimizer.step()


def evaluate(data_source, n_words):
    model.eval()
    total_loss = 0
    with torch.no_grad():
        for i in range(len(data_source)):
            data = torch.LongTensor(data_source[i]).view(1, -1).to(device)
            targets = torch.LongTensor([data_source[i][-1]]).to(device)
            output = model(data)
            total_loss += nn.functional.cross_entropy(output[:, -1].view(-1, n_words), targets)
    return total_loss.item() / len(data_source)


def train_lines(path):
    sequences = [torch.LongTensor([int(t) for t in line.split()]) for line in open(path)]
    embed = nn.Embedding(1000, 88).to(device)
    for seq in sequences:
        x, y = seq[:-1].to(device), seq[1:].to(device)
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(embed(x)), y).backward()
        optimizer.step()
