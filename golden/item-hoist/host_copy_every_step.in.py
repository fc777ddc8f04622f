# Class: a per-step print of `loss.item()` beside a value copied to the host every step after
# the backward (`correct = pred.max(1)[1].eq(target).cpu().sum()`), read by the same print.
# The copy runs a graph of its own every step whatever the print does: guarding the print
# alone would thin the log and keep that execution (measured on PointNet's training script:
# 2 executions a step with or without the guard). The print is left, and TRN125 says to keep
# both as tensors and read them under the interval. Found at first sight in a point-cloud
# repository. Twin: host_copy_every_step_twin, whose accuracy stays a tensor: the print is
# guarded.
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
            pred_choice = pred.data.max(1)[1]
            correct = pred_choice.eq(target.data).cpu().sum()
            print("[%d: %d] train loss: %f accuracy: %f" % (epoch, i, loss.item(), correct.item() / 32.0))
