# A box whose bounds are drawn on the host every step, cut out of a device batch in the step
# (TRN448, the CutMix shape): bounds unpacked from the module's own helper that draws them
# (`rand_bbox`: `np.random.randint` centres clipped with `np.clip`) and pasted by slice
# assignment, bounds from a helper handed the step's draw, a random erasing whose helper draws
# with `random.randint`, a crop read at an offset a helper returns, and a CutMix helper that
# pastes the box itself; a trainer class whose step unpacks the bounds of its own method.
import random

import numpy as np
import torch
import torch.nn as nn

device = torch.device("xla")
model = nn.Conv2d(3, 10, 3, padding=1).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def rand_bbox(size, lam):
    W = size[2]
    H = size[3]
    cut_rat = np.sqrt(1.0 - lam)
    cut_w = int(W * cut_rat)
    cut_h = int(H * cut_rat)
    cx = np.random.randint(W)
    cy = np.random.randint(H)
    bbx1 = np.clip(cx - cut_w // 2, 0, W)
    bby1 = np.clip(cy - cut_h // 2, 0, H)
    bbx2 = np.clip(cx + cut_w // 2, 0, W)
    bby2 = np.clip(cy + cut_h // 2, 0, H)
    return bbx1, bby1, bbx2, bby2


def box_of(size, lam):
    cut = int(size * (1.0 - lam) ** 0.5)
    return size // 2 - cut // 2, size // 2 + cut // 2


def erase_params(images, scale=0.2):
    h = int(images.shape[-2] * scale)
    w = int(images.shape[-1] * scale)
    return random.randint(0, images.shape[-2] - h), random.randint(0, images.shape[-1] - w), h, w


def crop_offsets(height, width, patch):
    return np.random.randint(0, height - patch), np.random.randint(0, width - patch)


def cutmix(images, labels, alpha):
    lam = np.random.beta(alpha, alpha)
    index = torch.randperm(images.size(0), device=images.device)
    x1, y1, x2, y2 = rand_bbox(images.size(), lam)
    images[:, :, x1:x2, y1:y2] = images[index, :, x1:x2, y1:y2]
    return images, labels, labels[index], lam


def train_cutmix(loader, beta):
    for i, (input, target) in enumerate(loader):
        input = input.cuda()
        target = target.cuda()
        lam = np.random.beta(beta, beta)
        rand_index = torch.randperm(input.size()[0]).cuda()
        bbx1, bby1, bbx2, bby2 = rand_bbox(input.size(), lam)
        input[:, :, bbx1:bbx2, bby1:bby2] = input[rand_index, :, bbx1:bbx2, bby1:bby2]
        lam = 1 - ((bbx2 - bbx1) * (bby2 - bby1) / (input.size()[-1] * input.size()[-2]))
        output = model(input).mean((2, 3))
        loss = criterion(output, target) * lam + criterion(output, target[rand_index]) * (1 - lam)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_bounds_of_drawn_lam(loader, size):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        lam = np.random.beta(1.0, 1.0)
        lo, hi = box_of(size, lam)
        images[:, :, lo:hi, lo:hi] = images.flip(0)[:, :, lo:hi, lo:hi]
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_random_erasing(loader):
    for images, labels in loader:
        images = images.to(device)
        labels = labels.to(device)
        top, left, h, w = erase_params(images)
        images[:, :, top : top + h, left : left + w] = 0
        optimizer.zero_grad()
        criterion(model(images).mean((2, 3)), labels).backward()
        optimizer.step()


def train_crop_at_returned_offsets(loader, patch):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        top, left = crop_offsets(images.shape[-2], images.shape[-1], patch)
        crop = images[:, :, top : top + patch, left : left + patch]
        optimizer.zero_grad()
        criterion(model(crop).mean((2, 3)), labels).backward()
        optimizer.step()


def train_cutmix_helper(loader):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        images, labels_a, labels_b, lam = cutmix(images, labels, 1.0)
        output = model(images).mean((2, 3))
        loss = criterion(output, labels_a) * lam + criterion(output, labels_b) * (1 - lam)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Trainer:
    def __init__(self, loader, beta):
        self.loader, self.beta = loader, beta

    def rand_bbox(self, size, lam):
        cut = int(size[-1] * np.sqrt(1.0 - lam))
        cx, cy = np.random.randint(size[-2]), np.random.randint(size[-1])
        x1, x2 = np.clip(cx - cut // 2, 0, size[-2]), np.clip(cx + cut // 2, 0, size[-2])
        y1, y2 = np.clip(cy - cut // 2, 0, size[-1]), np.clip(cy + cut // 2, 0, size[-1])
        return x1, y1, x2, y2

    def train_epoch(self):
        for images, labels in self.loader:
            images, labels = images.to(device), labels.to(device)
            lam = np.random.beta(self.beta, self.beta)
            x1, y1, x2, y2 = self.rand_bbox(images.size(), lam)
            images[:, :, x1:x2, y1:y2] = images.flip(0)[:, :, x1:x2, y1:y2]
            optimizer.zero_grad()
            criterion(model(images).mean((2, 3)), labels).backward()
            optimizer.step()
