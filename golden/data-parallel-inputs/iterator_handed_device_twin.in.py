# Twin of iterator_handed_device: the loader is made without the device, so the elements it
# yields are on the CPU and the DataParallel model is fed them unmoved: a blocker.
import torch
import torch.nn as nn

from data_utils import get_loader

device = torch.device("cuda")
loader = get_loader("data", batch_size=60, shuffle=True)
model = nn.DataParallel(nn.Linear(150, 150)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train():
    for batch, (data, target, seq_len) in enumerate(loader):
        model.zero_grad()
        loss = model(data, target).float().mean()
        loss.backward()
        optimizer.step()
        print(data.size(0), seq_len)
