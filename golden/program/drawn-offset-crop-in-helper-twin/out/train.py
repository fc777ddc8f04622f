# The twin of drawn-offset-crop-in-helper: the same helpers, but the step crops the CPU batch
# before `.to(device)` (the fix), and crops the device pair only at the centre (an offset that
# is the same every step).
import torch
import torch.nn as nn
import torch_xla
import torch_xla.core.xla_model as xm

from imgproc import augment_pair, center_crop_torch, random_crop_torch

device = torch_xla.device()
model = nn.Sequential(nn.Conv2d(3, 48, 3, padding=1), nn.PixelShuffle(4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = nn.MSELoss()
loader = torch.utils.data.DataLoader(
    [{"gt": torch.rand(3, 96, 96), "lr": torch.rand(3, 24, 24)}] * 16, batch_size=4
)


def train(epoch):
    for batch_data in loader:
        gt, lr = random_crop_torch(batch_data["gt"], batch_data["lr"], 32, 4)
        gt = gt.to(device, non_blocking=True)
        lr = lr.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = criterion(model(lr), gt)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def train_augmented(epoch):
    for batch_data in loader:
        gt, lr = augment_pair(batch_data["gt"], batch_data["lr"], 32, 4)
        gt, lr = gt.to(device), lr.to(device)
        optimizer.zero_grad()
        criterion(model(lr), gt).backward()
        optimizer.step()
        torch_xla.sync()


def validate(epoch):
    with torch.no_grad():
        for step, batch_data in enumerate(loader):
            gt = batch_data["gt"].to(device)
            lr = batch_data["lr"].to(device)
            gt, lr = center_crop_torch(gt, lr, 32, 4)
            if step % 10 == 0:
                def _log(lr, gt):
                    print(criterion(model(lr), gt).item())
                xm.add_step_closure(_log, args=(lr, gt))
            torch_xla.sync()


if __name__ == "__main__":
    for epoch in range(2):
        train(epoch)
        train_augmented(epoch)
        validate(epoch)
