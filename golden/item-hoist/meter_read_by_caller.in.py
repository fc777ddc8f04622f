# Twin of meter_update: the function returns the loss meter's average to its caller, which
# may do anything with it (a comparison, `json.dump`): a tensor there is not certain to
# behave as the number; the read stays and is reported (TRN125).
import torch


class AverageMeter:
    """Computes and stores the average and current value"""

    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def all_reduce(self):
        total = torch.tensor([self.sum, self.count], dtype=torch.float32)
        self.sum, self.count = total.tolist()
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)


def accuracy(output, target):
    correct = output.argmax(1).eq(target).float().sum(0, keepdim=True)
    return correct.mul_(100.0 / target.size(0))


def display(batch, meters):
    print(f"[{batch}]\t" + "\t".join(str(meter) for meter in meters))


def train(loader, model, criterion, optimizer, print_freq):
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    for i, (images, target) in enumerate(loader):
        images, target = images.to("xla"), target.to("xla")
        output = model(images)
        loss = criterion(output, target)
        losses.update(loss.item(), images.size(0))
        top1.update(accuracy(output, target)[0], images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % print_freq == 0:
            display(i + 1, [losses, top1])
    return losses.avg, top1.avg
