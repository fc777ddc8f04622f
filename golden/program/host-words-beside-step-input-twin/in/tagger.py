# Twin of host-words-beside-step-input: the second input is a tensor left on the CPU (the
# words' lengths made on the host and never moved), beside ids on the device: "does not".
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

    def forward(self, ids, lengths):
        return self.linear(torch.cat((self.embedding(ids), lengths), 1))


device = torch.device("cuda")
model = Tagger().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(10):
    for words, tags in training_data:
        ids = torch.tensor([word_to_idx[w] for w in words]).to(device)
        target = torch.tensor([tag_to_idx[t] for t in tags]).to(device)
        lengths = torch.tensor([[float(len(w))] for w in words])
        loss = nn.functional.cross_entropy(model(ids, lengths), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
