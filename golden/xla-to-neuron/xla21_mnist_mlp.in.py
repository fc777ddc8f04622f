# golden: target=neuron
"""aws-neuron-samples mnist_mlp train.py shape (torch-xla 2.1 style): the string device, a marker
after optimizer.step() and xm.save."""
import os
import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import torch_xla.core.xla_model as xm

EPOCHS = 2
WARMUP_STEPS = 2
BATCH_SIZE = 32


class MLP(nn.Module):
    def __init__(self, input_size=28 * 28, output_size=10, layers=[120, 84]):
        super().__init__()
        self.fc1 = nn.Linear(input_size, layers[0])
        self.fc2 = nn.Linear(layers[0], layers[1])
        self.fc3 = nn.Linear(layers[1], output_size)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return F.log_softmax(x, dim=1)


def main():
    data = TensorDataset(torch.randn(512, 28 * 28), torch.randint(0, 10, (512,)))
    train_loader = DataLoader(data, batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
    torch.manual_seed(0)
    device = 'xla'
    model = MLP().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.NLLLoss()
    model.train()
    for epoch in range(EPOCHS):
        start = time.time()
        for idx, (train_x, train_label) in enumerate(train_loader):
            optimizer.zero_grad()
            train_x = train_x.view(train_x.size(0), -1)
            train_x = train_x.to(device)
            train_label = train_label.to(device)
            output = model(train_x)
            loss = loss_fn(output, train_label)
            loss.backward()
            optimizer.step()
            xm.mark_step()
            if idx < WARMUP_STEPS:
                start = time.time()
    print("Final loss is {:0.4f}".format(loss.detach().to('cpu')))
    os.makedirs("checkpoints", exist_ok=True)
    checkpoint = {'state_dict': model.state_dict()}
    xm.save(checkpoint, 'checkpoints/checkpoint.pt')


if __name__ == '__main__':
    main()
