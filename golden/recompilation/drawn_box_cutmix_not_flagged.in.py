# Boxes that must not be reported as bounds drawn on the host every step (TRN448 twin of
# drawn_box_cutmix): bounds that are constants, bounds a helper derives from the shape only,
# bounds of a helper handed a constant, a helper whose draw decides no slice (MixUp), bounds
# from a few fixed values, CutMix pasted into the CPU batch before the move, and the fix itself:
# a mask of a fixed shape whose bounds are moved as one tensor; a trainer class whose own method
# derives the box from the shape only.
import random

import numpy as np
import torch
import torch.nn as nn

device = torch.device("xla")
model = nn.Conv2d(3, 10, 3, padding=1).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def rand_bbox(size, lam):
    W, H = size[2], size[3]
    cut_w, cut_h = int(W * np.sqrt(1.0 - lam)), int(H * np.sqrt(1.0 - lam))
    cx, cy = np.random.randint(W), np.random.randint(H)
    return (
        np.clip(cx - cut_w // 2, 0, W),
        np.clip(cy - cut_h // 2, 0, H),
        np.clip(cx + cut_w // 2, 0, W),
        np.clip(cy + cut_h // 2, 0, H),
    )


def center_box(size):
    return size[2] // 4, size[3] // 4, 3 * size[2] // 4, 3 * size[3] // 4


def box_of(size, lam):
    cut = int(size * (1.0 - lam) ** 0.5)
    return size // 2 - cut // 2, size // 2 + cut // 2


def mix_params(batch_size, alpha):
    return np.random.beta(alpha, alpha), torch.randperm(batch_size)


def fixed_box(size):
    top = random.choice((0, 8))
    return top, top + size


def train_constant_box(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        images[:, :, 8:24, 8:24] = images.flip(0)[:, :, 8:24, 8:24]
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_box_of_the_shape(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        x1, y1, x2, y2 = center_box(images.size())
        images[:, :, x1:x2, y1:y2] = images.flip(0)[:, :, x1:x2, y1:y2]
        lo, hi = box_of(images.shape[-1], 0.5)
        images[:, :, lo:hi, lo:hi] = 0
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_mixup(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        lam, index = mix_params(images.size(0), 0.4)
        images = lam * images + (1 - lam) * images[index.to(device)]
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_fixed_offsets(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        lo, hi = fixed_box(16)
        images[:, :, lo:hi, lo:hi] = 0
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_cutmix_on_the_cpu(loader):
    for images, labels in loader:
        lam = np.random.beta(1.0, 1.0)
        index = torch.randperm(images.size(0))
        bbx1, bby1, bbx2, bby2 = rand_bbox(images.size(), lam)
        images[:, :, bbx1:bbx2, bby1:bby2] = images[index, :, bbx1:bbx2, bby1:bby2]
        images, labels, labels_b = images.to(device), labels.to(device), labels[index].to(device)
        output = model(images).mean((2, 3))
        loss = criterion(output, labels) * lam + criterion(output, labels_b) * (1 - lam)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_cutmix_masked(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        lam = np.random.beta(1.0, 1.0)
        index = torch.randperm(images.size(0)).to(device)
        bbx1, bby1, bbx2, bby2 = rand_bbox(images.size(), lam)
        b = torch.tensor([bbx1, bbx2, bby1, bby2]).to(device)
        rows = torch.arange(images.shape[-2], device=device)[:, None]
        cols = torch.arange(images.shape[-1], device=device)
        box = (rows >= b[0]) & (rows < b[1]) & (cols >= b[2]) & (cols < b[3])
        images = torch.where(box, images[index], images)
        output = model(images).mean((2, 3))
        loss = criterion(output, labels) * lam + criterion(output, labels[index]) * (1 - lam)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Trainer:
    def __init__(self, loader):
        self.loader = loader

    def center_box(self, size):
        return size[-2] // 4, size[-1] // 4, 3 * size[-2] // 4, 3 * size[-1] // 4

    def train_epoch(self):
        for images, labels in self.loader:
            images, labels = images.to(device), labels.to(device)
            x1, y1, x2, y2 = self.center_box(images.size())
            images[:, :, x1:x2, y1:y2] = images.flip(0)[:, :, x1:x2, y1:y2]
            optimizer.zero_grad()
            criterion(model(images).mean((2, 3)), labels).backward()
            optimizer.step()
