# Must not fire: a loop that moves the input it feeds the DataParallel model, and a model that is
# not wrapped in DataParallel (it never scattered anything; the step's placement is the
# evaluator's question, not this rule's).
import torch
import torch.nn as nn


def validate(val_loader, model, criterion):
    for input, target in val_loader:
        input = input.cuda()
        target = target.cuda()
        print(criterion(model(input), target).item())


def evaluate(loader, plain):
    for input, target in loader:
        target = target.cuda()
        print(plain(input).shape, target.shape)


def main(net, other, val_loader):
    model = nn.DataParallel(net).cuda()
    validate(val_loader, model, nn.CrossEntropyLoss().cuda())
    evaluate(val_loader, other.cuda())
