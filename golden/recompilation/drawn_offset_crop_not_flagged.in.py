# Slices that must not be reported as a device tensor cropped at a drawn offset (TRN448 twin):
# the crop taken of the CPU batch before `.to(device)` (the fix), in the step and through the
# module's helper; an offset that is the same every step; offsets drawn from a few fixed
# values; a crop in a Dataset's `__getitem__` (the loader's workers, on the host); a device
# tensor cropped at a fixed offset while a draw only picks a flip.
import random

import torch
import torch.nn as nn

device = torch.device("xla")
model = nn.Conv2d(3, 3, 3, padding=1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def random_crop(image, size):
    top = random.randint(0, image.shape[-2] - size)
    left = random.randint(0, image.shape[-1] - size)
    return image[..., top : top + size, left : left + size]


class Crops(torch.utils.data.Dataset):
    def __init__(self, images, size):
        self.images, self.size = images, size

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        image = self.images[index]
        top = random.randint(0, image.shape[-2] - self.size)
        return image[:, top : top + self.size, :]


def train_cropped_on_host(loader):
    for batch in loader:
        top = random.randint(0, batch.shape[-2] - 32)
        crop = batch[:, :, top : top + 32, :].to(device)
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_helper_on_host(loader):
    for batch in loader:
        crop = random_crop(batch["image"], 32)
        crop = crop.to(device, non_blocking=True)
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_fixed_offset(loader):
    for batch in loader:
        images = batch.to(device)
        top = 8
        crop = images[:, :, top : top + 32, top : top + 32]
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_few_offsets(loader):
    for batch in loader:
        images = batch.to(device)
        top = random.choice((0, 16, 32))
        crop = images[:, :, top : top + 32, :]
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_dataset(images):
    loader = torch.utils.data.DataLoader(Crops(images, 32), batch_size=4)
    for batch in loader:
        batch = batch.to(device)
        if random.random() < 0.5:
            batch = batch.flip(-1)
        optimizer.zero_grad()
        model(batch[:, :, 4:36, 4:36]).sum().backward()
        optimizer.step()
