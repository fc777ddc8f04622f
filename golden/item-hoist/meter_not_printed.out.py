# Must not fire TRN127: the meters hold device tensors (TRN126's `loss.detach()`, `acc1[0]`), but
# nothing in the loop prints them: they are printed once, after the epoch's last step.


class AverageMeter:
    def __init__(self, name, fmt=":f"):
        self.name = name
        self.fmt = fmt
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
        fmtstr = "{name} {val" + self.fmt + "} ({avg" + self.fmt + "})"
        return fmtstr.format(**self.__dict__)


def accuracy(output, target):
    return output.argmax(1).eq(target).float().mean(0, keepdim=True).mul_(100.0)


def train(loader, model, criterion, optimizer):
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    for i, (images, target) in enumerate(loader):
        images, target = images.to("xla"), target.to("xla")
        output = model(images)
        loss = criterion(output, target)
        losses.update(loss.detach(), images.size(0))
        top1.update(accuracy(output, target)[0], images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(losses, top1)
