"""Code written for torch 0.3 reads each loss as a one-element tensor (`loss.data[0]`): since torch
0.4 a loss is 0-dim, and the index raises IndexError. Each one becomes `.item()`."""
import torch
import torch.nn as nn
import torch.nn.functional as F

loss_func = nn.CrossEntropyLoss()


def train(cnn, loader, optimizer):
    for step, (b_x, b_y) in enumerate(loader):
        output = cnn(b_x)
        loss = loss_func(output, b_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 50 == 0:
            print("train loss: %.4f" % loss.data[0])


def evaluate(model, x, y, z):
    mse = F.mse_loss(model(x), y)
    total = mse + 0.1 * F.l1_loss(model(x), z, size_average=False)
    mean = model(x).mean()
    return mse.data[0], total.data[0], mean.data[0]
