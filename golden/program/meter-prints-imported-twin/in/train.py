# Twin of meter-prints-imported: the same two meters take the loss tensor (TRN126), but they
# are printed once, after the loop: no print in the step reads them, and TRN127 says nothing.
import torch

from utils.meters import AverageMeter


class LocalMeter:
    def __init__(self, name):
        self.name = name
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        return f"{self.name} {self.val:.4f} ({self.avg:.4f})"


def main(loader):
    model = torch.nn.Linear(8, 8).to("xla")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = AverageMeter("Loss", ":.4e")
    local = LocalMeter("Loss2")
    for step, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        loss = torch.nn.functional.mse_loss(model(x), y)
        losses.update(loss.item(), x.size(0))
        local.update(loss.item(), x.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(losses, local)


if __name__ == "__main__":
    main([])
