# A line named in a message is a line of the file as read, even where an earlier pass added lines
# above it (here `import torch_xla`): the TRN125 note's "(line 15)" is `d_x = ...` below.
import torch


def train(model, loader, optimizer, epochs):
    device = torch.device("cuda")
    model.to(device)
    for epoch in range(epochs):
        for i, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            output = model(x)
            loss = torch.nn.functional.mse_loss(output, y)
            loss.backward()
            d_x = output.mean().item()
            optimizer.step()
            optimizer.zero_grad()
            print("loss %.4f D(x) %.4f" % (loss.item(), d_x))
