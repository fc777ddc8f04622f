# A line named in a message is a line of the file as read, even where an earlier pass added lines
# above it (here `import torch_xla`): the TRN125 note's "(line 15)" is `d_x = ...` below.
import torch
import torch_xla


def train(model, loader, optimizer, epochs):
    device = torch_xla.device()
    model.to(device)
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            output = model(x)
            loss = torch.nn.functional.mse_loss(output, y)
            loss.backward()
            d_x = output.mean().detach()
            optimizer.step()
            torch_xla.sync()
            optimizer.zero_grad()
            if i % 10 == 0:
                print("loss %.4f D(x) %.4f" % (loss.item(), d_x))
