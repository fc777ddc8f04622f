# A device tensor sliced in the step at an offset drawn on the host while the length stays the
# same (TRN448, a random crop): in the step, in the module's own augmentation helper that draws
# the offsets (through a list of images and a second helper), in a helper handed the step's
# draws, with `.narrow`, at a `torch.randint(...).item()` offset, and a CutMix window written
# into the device batch (its length is drawn too: the same graph per value); a batch moved as a
# dict, cropped at two offsets drawn at once.
import random

import numpy as np
import torch
import torch.nn as nn

device = torch.device("xla")
model = nn.Conv2d(3, 3, 3, padding=1).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def random_crop_pair(gt_images, lr_images, gt_size, scale):
    if not isinstance(lr_images, list):
        lr_images = [lr_images]
    h, w = lr_images[0].size()[-2:]
    p = gt_size // scale
    top = random.randint(0, h - p)
    left = random.randint(0, w - p)
    lr_images = [v[:, :, top : top + p, left : left + p] for v in lr_images]
    gt_top, gt_left = int(top * scale), int(left * scale)
    gt = gt_images[:, :, gt_top : gt_top + gt_size, gt_left : gt_left + gt_size]
    return gt, lr_images[0]


def augment(gt, lr, gt_size, scale):
    gt, lr = random_crop_pair(gt, lr, gt_size, scale)
    return gt.flip(-1), lr.flip(-1)


def crop_at(image, top, left, size):
    return image[..., top : top + size, left : left + size]


def train_crop_in_step(loader):
    for batch in loader:
        images = batch["image"].to(device, non_blocking=True)
        top = np.random.randint(0, images.shape[-2] - 32)
        left = top + 4
        crop = images[:, :, top : top + 32, left : left + 32]
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_crop_in_helper(loader, gt_size, scale):
    for batch in loader:
        gt = batch["gt"].to(device, non_blocking=True)
        lr = batch["lr"].to(device, non_blocking=True)
        gt, lr = augment(gt, lr, gt_size, scale)
        optimizer.zero_grad()
        (model(lr).mean() - gt.mean()).backward()
        optimizer.step()


def train_offsets_handed_in(loader):
    for images, _ in loader:
        images = images.cuda()
        top, left = random.randint(0, 16), random.randint(0, 16)
        crop = crop_at(images, top, left, 32)
        optimizer.zero_grad()
        model(crop).sum().backward()
        optimizer.step()


def train_narrow(loader):
    for images in loader:
        images = images.to(device)
        start = torch.randint(0, 16, (1,)).item()
        optimizer.zero_grad()
        model(images.narrow(3, start, 32)).sum().backward()
        optimizer.step()


def train_cutmix(loader, size):
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        lam = np.random.beta(1.0, 1.0)
        cut = int(size * np.sqrt(1.0 - lam))
        x1 = int(np.clip(np.random.uniform(0, size) - cut // 2, 0, size))
        x2 = int(np.clip(x1 + cut, 0, size))
        images[:, :, x1:x2, :] = images.flip(0)[:, :, x1:x2, :]
        optimizer.zero_grad()
        model(images).sum().backward()
        optimizer.step()


def train_dict_batch(loader):
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        top, left = np.random.randint(0, 16, size=2)
        optimizer.zero_grad()
        model(batch["image"][:, :, top : top + 32, left : left + 32]).sum().backward()
        optimizer.step()
