"""The twin: the same device-less transformer script, but the loop binds each batch to plain
names passed straight to calls, so the tool moves the model and each batch to the device: the
entry point runs on the accelerator and its module keeps every rewrite (the compiler flag too)."""
import os

import torch
import torch.nn as nn
import torch.optim as optim
import torch_xla

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


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


def main():
    torch.manual_seed(0)
    torch_xla.manual_seed(0)
    data = [(torch.randint(0, 100, (8, 16)), torch.randint(0, 100, (8,))) for _ in range(4)]
    model = Encoder().to(torch_xla.device())
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.001)
    for inputs, targets in data:
        inputs, targets = inputs.to(torch_xla.device()), targets.to(torch_xla.device())
        optimizer.zero_grad()
        output = model(inputs).mean(dim=1)
        loss = criterion(output, targets)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
