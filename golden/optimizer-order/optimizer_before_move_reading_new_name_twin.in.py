# Twin of optimizer_before_move_reading_new_name: a statement between the optimizer and the move
# changes the model (`model.weight.data = pretrained`): neither moves, and the verdict names the
# optimizer.
import torch
import torch.nn as nn
import torch.optim as optim

model = nn.Linear(4, 2)
optimizer = optim.Adam(model.parameters())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model.weight.data = torch.zeros(2, 4)
model = model.to(device)

for epoch in range(3):
    x = torch.randn(8, 4).to(device)
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
