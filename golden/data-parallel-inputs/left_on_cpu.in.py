# Where a DataParallel model's input stays on the CPU and moving it is not certain (the loop moves
# no other element of the batch; it reads the input on the host too), a blocker says what to move;
# where the model's calls are out of sight (it is returned), a warning says what to check.
import torch.nn as nn


def validate(loader, model):
    for input, target in loader:
        output = model(input)
        print((output.argmax(1) == target).sum())


def show(loader, model):
    for input, target in loader:
        target = target.cuda()
        output = model(input)
        print(output.shape, input.numpy().mean(), target)


def build(net, loader):
    model = nn.DataParallel(net).cuda()
    validate(loader, model)
    show(loader, model)


def make(net):
    model = nn.DataParallel(net).cuda()
    return model


def to_host(loader, net):
    model = nn.DataParallel(net).cuda()
    for input, target in loader:
        target = target.to("cpu")
        print(model(input).shape, target)
