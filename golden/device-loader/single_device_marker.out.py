# golden: scale-out=true
import time

import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
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
        for idx, (train_x, train_label) in enumerate(pl.MpDeviceLoader(train_loader, device)):
            optimizer.zero_grad()
            train_x = train_x.view(train_x.size(0), -1)
            loss = loss_fn(model(train_x), train_label)
            loss.backward()
            optimizer.step()
            if idx < WARMUP_STEPS:
                start = time.time()
