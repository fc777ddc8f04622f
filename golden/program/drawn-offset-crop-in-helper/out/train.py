# A super-resolution trainer (SRGAN's shape): the step moves the pair to the device, then hands
# it to the repository's own augmentation helper in another module, which crops it at offsets
# it draws on the host (`random.randint`), directly or one call deeper (TRN448 across modules).
import torch
import torch.nn as nn
import torch_xla

from imgproc import augment_pair, random_crop_torch

device = torch_xla.device()
model = nn.Sequential(nn.Conv2d(3, 48, 3, padding=1), nn.PixelShuffle(4)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = nn.MSELoss()
loader = torch.utils.data.DataLoader(
    [{"gt": torch.rand(3, 96, 96), "lr": torch.rand(3, 24, 24)}] * 16, batch_size=4
)


def train(epoch):
    for batch_data in loader:
        gt = batch_data["gt"].to(device, non_blocking=True)
        lr = batch_data["lr"].to(device, non_blocking=True)
        gt, lr = random_crop_torch(gt, lr, 32, 4)
        optimizer.zero_grad()
        loss = criterion(model(lr), gt)
        loss.backward()
        optimizer.step()
        torch_xla.sync()


def train_augmented(epoch):
    for batch_data in loader:
        gt = batch_data["gt"].to(device)
        lr = batch_data["lr"].to(device)
        gt, lr = augment_pair(gt, lr, 32, 4)
        optimizer.zero_grad()
        criterion(model(lr), gt).backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    for epoch in range(2):
        train(epoch)
        train_augmented(epoch)
