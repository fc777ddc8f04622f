# golden: select=TRN12,TRN10
# The PyTorch CIFAR-10 tutorial loop: the running loss is summed on the device; the print that
# already runs every 2000 steps reads it there. No sync follows the print, so no step closure.
import torch


def train(net, trainloader, criterion, optimizer):
    for epoch in range(2):
        running_loss = 0.0
        for i, data in enumerate(trainloader, 0):
            inputs, labels = data
            inputs, labels = inputs.to("xla"), labels.to("xla")
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()

            running_loss += loss.item()
            if i % 2000 == 1999:
                print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 2000:.3f}")
                running_loss = 0.0
