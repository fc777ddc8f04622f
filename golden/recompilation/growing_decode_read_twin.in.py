# Twin of growing_decode_read: a loop that grows a tensor on the host (nothing moved to the
# device), and one that grows a device tensor but reads nothing on the host each iteration (its
# graph runs once, after the loop), are not reported.
import torch


def tokens_on_host(ids, steps):
    out = torch.tensor([[0]])
    for step in range(steps):
        nxt = torch.tensor([[ids[step]]])
        out = torch.cat([out, nxt], dim=1)
        print(nxt.item())
    return out


def collect(model, source, steps, device):
    out = source.to(device)
    for _ in range(steps):
        out = torch.cat([out, (out[:, -1:] * 2).to(device)], dim=1)
    return out


def train(model, loader, optimizer, device):
    for batch in loader:
        loss = model(batch.to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(collect(model, batch.to(device), 4, device), tokens_on_host([1, 2], 2))
