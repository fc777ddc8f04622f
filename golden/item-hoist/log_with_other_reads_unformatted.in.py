# Twin of log_with_other_reads: `d_x` is printed without a float conversion (`{d_x}`), where a
# tensor prints as `tensor(0.5, device='xla:0')`, not as the number: the read stays, reported,
# and the print is not thinned while it stays.
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
            print(f"loss {loss.item():.4f} D(x) {d_x}")
