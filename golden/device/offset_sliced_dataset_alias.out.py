# A whole dataset moved to the device with no condition, then sliced at a name bound to the
# loop's offset (`start_ind = batch`, locuslab/TCN copy_memory) and with `.to(device)`: kept on
# the host, each slice moved (TRN056).
import torch
import torch.nn as nn
import torch_xla

device = torch_xla.device()
n_train, batch_size = 1024, 32
train_x = torch.randint(0, 9, (n_train, 30))
train_y = torch.randint(0, 9, (n_train, 30))
model = nn.Embedding(10, 10).to(torch_xla.device())
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())


def train(epoch):
    model.train()
    xla_device = torch_xla.device()
    for batch_idx, batch in enumerate(range(0, n_train, batch_size)):
        start_ind = batch
        end_ind = start_ind + batch_size
        x = train_x[start_ind:end_ind].to(xla_device)
        y = train_y[start_ind:end_ind].to(device)
        optimizer.zero_grad()
        loss = criterion(model(x).view(-1, 10), y.view(-1))
        loss.backward()
        optimizer.step()
        if batch_idx % 10 == 0:
            print(epoch, batch_idx, loss.item())


for epoch in range(3):
    train(epoch)
