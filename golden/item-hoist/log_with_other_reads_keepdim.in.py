# Twin of log_with_other_reads: `d_s` reduces over a dim with `keepdim=True`, a 1-element tensor
# that `{d_s:.4f}` does not format (only a 0-d tensor formats as its number): the read stays,
# reported.
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
            d_s = output.sum(0, keepdim=True).item()
            optimizer.step()
            optimizer.zero_grad()
            torch_xla.sync()
            print(f"loss {loss.item():.4f} s {d_s:.4f}")
