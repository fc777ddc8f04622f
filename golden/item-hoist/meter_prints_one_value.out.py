# Must not fire TRN127: the meter TRN126 hands the loss tensor formats only its average, and
# the other meter printed with it holds host numbers (`time.time() - end`): one transfer a print.
import time


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        return f"{self.name} {self.avg:.4f}"


def train(loader, model, criterion, optimizer, print_freq):
    batch_time = AverageMeter("Time")
    losses = AverageMeter("Loss")
    end = time.time()
    for i, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        loss = criterion(model(x), y)
        losses.update(loss.detach(), x.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        batch_time.update(time.time() - end)
        end = time.time()
        if i % print_freq == 0:
            print(batch_time, losses)
