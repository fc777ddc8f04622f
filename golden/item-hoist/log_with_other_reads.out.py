# dcgan's D(x): a value read every step only for a print that comes later, after `output` may be
# rebound, cannot move to the print; it stays where it is as a tensor (`output.mean().detach()`),
# which `%.4f` formats as it formatted the number, and the print moves under the log interval.
# Twin: log_with_other_reads_unformatted, where the print would show the tensor differently.
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
            optimizer.zero_grad()
            torch_xla.sync()
            if i % 10 == 0:
                print("loss %.4f D(x) %.4f" % (loss.item(), d_x))
