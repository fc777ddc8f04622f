"""A tutorial script that places nothing on a device: the whole dataset is two tensors bound
before the epoch loop, and the model is a transformer built by its constructor. The tool cannot
move it for certain (the batch is not bound by the loop), so every entry point trains on the
CPU: the compiler flag and the seeding rewrite serve no run, and the module is left as given."""
import torch
import torch.nn as nn
import torch.optim as optim


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 32)
        self.attn = nn.MultiheadAttention(32, 4, batch_first=True)
        self.out = nn.Linear(32, 100)

    def forward(self, x):
        h = self.emb(x)
        h, _ = self.attn(h, h, h)
        return self.out(h)


torch.manual_seed(0)
inputs = torch.randint(0, 100, (8, 16))
targets = torch.randint(0, 100, (8, 16))
model = Encoder()
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

for epoch in range(100):
    optimizer.zero_grad()
    output = model(inputs)
    loss = criterion(output.view(-1, 100), targets.view(-1))
    loss.backward()
    optimizer.step()
