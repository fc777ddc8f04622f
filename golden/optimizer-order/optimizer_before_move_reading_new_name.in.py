# Class: an optimizer built before its model's move, where the move reads a name bound between
# them (`device = torch.device(...)`, a notebook's next cells): the move cannot go first, so the
# optimizer goes below it (its `model` is then the moved model's binding).
import torch
import torch.nn as nn
import torch.optim as optim

model = nn.Linear(4, 2)
optimizer = optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss()
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = model.to(device)
criterion = criterion.to(device)

for epoch in range(3):
    x = torch.randn(8, 4).to(device)
    label = torch.randint(0, 2, (8,)).to(device)
    loss = criterion(model(x), label)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
