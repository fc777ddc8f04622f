# A print of `loss.item()` is not moved under a log interval when the step reads other values on
# the host every step anyway (dcgan's D(x)): the step would keep its syncs and only the log would
# thin. The finding says to keep all of them as tensors and read them together. Twins: the other
# item-hoist cases, whose steps read only what they log.
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
            d_x = output.mean().item()
            optimizer.step()
            optimizer.zero_grad()
            torch_xla.sync()
            print("loss %.4f D(x) %.4f" % (loss.item(), d_x))
