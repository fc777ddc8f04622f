# Class: a step input that is host data, not a tensor: a tagger's forward takes the sentence's
# words as a list of strings (`model(word_ids, words)`) beside the word ids moved to the device,
# from a list of pairs whose items differ (`("The dog ate".split(), ["DET", "NN", "V"])`). The
# words are read on the host; so is a flag made by comparing an option with a string
# (`preact = sys.argv[-1] == "abound"`), a bool whatever the option is. The step's tensors are on
# the device: "runs". Twin:
# host-words-beside-step-input-twin (the second input is a CPU tensor: "does not").
import sys

import torch
from torch import nn

training_data = [
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
word_to_idx = {w: i for i, w in enumerate(sorted({w for s, _ in training_data for w in s}))}
tag_to_idx = {"DET": 0, "NN": 1, "V": 2}


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(len(word_to_idx), 8)
        self.linear = nn.Linear(9, 3)

    def forward(self, ids, words, preact=False):
        lengths = torch.tensor([[float(len(w))] for w in words], device=ids.device)
        return self.linear(torch.cat((self.embedding(ids), lengths), 1))


device = torch.device("cuda")
model = Tagger().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for words, tags in training_data:
        ids = torch.tensor([word_to_idx[w] for w in words]).to(device)
        target = torch.tensor([tag_to_idx[t] for t in tags]).to(device)
        preact = sys.argv[-1] == "abound"
        loss = nn.functional.cross_entropy(model(ids, words, preact=preact), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
