# Must not fire: the same trainer whose evaluation loop moves its input itself (the twin of
# DataParallel-wrapped model on the GPU and a training loop that moves its batch, as there.
# data-parallel-eval-input): nothing for TRN149 to add.
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
        input, target = input.cuda(), target.cuda()
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
