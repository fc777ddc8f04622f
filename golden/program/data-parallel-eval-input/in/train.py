# CutMix's shape: a DataParallel model on the GPU, a training loop that moves its batch, and an
# evaluation loop that moves only the target and relied on DataParallel to scatter the input. On
# XLA nothing scatters it: the port moves it beside the target, and the loop, which now moves its
# whole batch, iterates an MpDeviceLoader as the training loop does.
import torch
import torch.nn as nn


def train(loader, model, criterion, optimizer):
    model.train()
    for input, target in loader:
        input = input.cuda()
        target = target.cuda()
        loss = criterion(model(input), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model, criterion):
    model.eval()
    for input, target in loader:
        target = target.cuda()
        output = model(input)
        print(criterion(output, target).item(), input.size(0))


def main():
    data = torch.utils.data.TensorDataset(torch.randn(8, 4), torch.randint(0, 2, (8,)))
    loader = torch.utils.data.DataLoader(data, batch_size=4)
    model = nn.DataParallel(nn.Linear(4, 2)).cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        train(loader, model, criterion, optimizer)
        validate(loader, model, criterion)


if __name__ == "__main__":
    main()
