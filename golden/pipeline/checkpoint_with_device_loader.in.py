# golden: select=TRN00,TRN131,TRN32,TRN101
import torch
from torch.utils.data import DataLoader


def main(model, ds, loss_fn, optimizer):
    device = torch.device("cuda")
    train_loader = DataLoader(ds, batch_size=32, drop_last=True)
    for step, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss_fn(model(data), target).backward()
        optimizer.step()
        if step % 500 == 0:
            torch.save(model.state_dict(), "ckpt.pt")
    torch.save(model.state_dict(), "final.pt")
