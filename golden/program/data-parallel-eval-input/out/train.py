# CutMix's shape: a DataParallel model on the GPU, a training loop that moves its batch, and an
# evaluation loop that moves only the target and relied on DataParallel to scatter the input. On
# XLA nothing scatters it: the port moves it beside the target, and the loop, which now moves its
# whole batch, iterates an MpDeviceLoader as the training loop does.
import torch
import torch.nn as nn
import torch_xla
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def train(loader, model, criterion, optimizer):
    model.train()
    device = torch_xla.device()
    for input, target in pl.MpDeviceLoader(loader, device):
        loss = criterion(model(input), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model, criterion):
    model.eval()
    device = torch_xla.device()
    for step, (input, target) in enumerate(pl.MpDeviceLoader(loader, device)):
        output = model(input)
        if step % 10 == 0:
            def _log(criterion, output, target, input):
                print(criterion(output, target).item(), input.size(0))
            xm.add_step_closure(_log, args=(criterion, output, target, input))


def main():
    data = torch.utils.data.TensorDataset(torch.randn(8, 4), torch.randint(0, 2, (8,)))
    loader = torch.utils.data.DataLoader(data, batch_size=4)
    model = nn.DataParallel(nn.Linear(4, 2)).to(torch_xla.device())
    criterion = nn.CrossEntropyLoss().to(torch_xla.device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        train(loader, model, criterion, optimizer)
        validate(loader, model, criterion)


if __name__ == "__main__":
    main()
