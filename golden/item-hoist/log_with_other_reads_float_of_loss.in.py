# Twin of log_with_other_reads: `d_f` reads `loss.float()`, which is `loss` itself when it is
# float32 already, and `loss.div_(2)` after the read would change a kept tensor before the print:
# the read stays, reported.
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
            d_f = loss.float().item()
            loss.div_(2)
            optimizer.step()
            optimizer.zero_grad()
            torch_xla.sync()
            print(f"loss {loss.item():.4f} f {d_f:.4f}")
