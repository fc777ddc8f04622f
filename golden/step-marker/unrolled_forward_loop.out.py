# Class: a loop over time steps that builds the loss a later statement of its block
# differentiates (`loss += criterion(output, target[c])`, then `loss.backward()`): the forward
# pass of that step, unrolled. It gets no cut of its own; the step's cut goes after the
# optimizer step.
import torch
import torch.nn as nn
import torch_xla

device = "cuda"
decoder = nn.GRUCell(8, 8).to(device)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)


def train(inputs, targets):
    hidden = torch.zeros(1, 8, device=device)
    loss = 0
    for c in range(len(inputs)):
        hidden = decoder(inputs[c], hidden)
        loss += criterion(hidden, targets[c])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    torch_xla.sync()
    return loss.item() / len(inputs)


for epoch in range(10):
    train(torch.randn(5, 1, 8, device=device), torch.randn(5, 1, 8, device=device))
