# Twin of host_copy_every_step: the accuracy is not copied to the host before the print (it
# is read there, by `.item()`), so the print's reads are its own and the print is guarded.
import torch
import torch.nn.functional as F


def train(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        for i, (points, target) in enumerate(loader):
            points, target = points.cuda(), target.cuda()
            optimizer.zero_grad()
            pred = model(points)
            loss = F.nll_loss(pred, target)
            loss.backward()
            optimizer.step()
            if i % 10 == 0:
                print("[%d: %d] train loss: %f" % (epoch, i, loss.item()))
