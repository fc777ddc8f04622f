# Twin of log_with_other_reads: `d_x` is printed without a float conversion (`{d_x}`), where a
# tensor prints as `tensor(0.5, device='xla:0')`, not as the number; `d_g` also decides whether
# to stop; `d_f` reads `loss.float()`, which is `loss` itself when it is float32 already (the
# `loss.div_(2)` after it would change a kept tensor). The reads stay, reported; the print is not
# thinned while they stay.
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
            d_g = output.std().item()
            d_f = loss.float().item()
            loss.div_(2)
            optimizer.step()
            optimizer.zero_grad()
            torch_xla.sync()
            print(f"loss {loss.item():.4f} D(x) {d_x} D(G) {d_g:.4f} f {d_f:.4f}")
            if d_g > 100:
                break
