# golden: scale-out=true
import time

import torch
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader

WARMUP_STEPS = 2


def main():
    train_loader = DataLoader(train_dataset, batch_size=32, drop_last=True)
    device = 'xla'
    model = MLP().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.NLLLoss()
    for epoch in range(4):
        start = time.time()
        for idx, (train_x, train_label) in enumerate(train_loader):
            optimizer.zero_grad()
            train_x = train_x.view(train_x.size(0), -1)
            train_x = train_x.to(device)
            train_label = train_label.to(device)
            loss = loss_fn(model(train_x), train_label)
            loss.backward()
            optimizer.step()
            xm.mark_step() # XLA: collect ops and run them in XLA runtime
            if idx < WARMUP_STEPS:
                start = time.time()
