import random

import torch


def random_crop_torch(gt_images, lr_images, gt_patch_size, upscale_factor):
    if not isinstance(gt_images, list):
        gt_images = [gt_images]
    if not isinstance(lr_images, list):
        lr_images = [lr_images]
    lr_image_height, lr_image_width = lr_images[0].size()[-2:]
    lr_patch_size = gt_patch_size // upscale_factor
    lr_top = random.randint(0, lr_image_height - lr_patch_size)
    lr_left = random.randint(0, lr_image_width - lr_patch_size)
    lr_images = [
        v[:, :, lr_top : lr_top + lr_patch_size, lr_left : lr_left + lr_patch_size]
        for v in lr_images
    ]
    gt_top, gt_left = int(lr_top * upscale_factor), int(lr_left * upscale_factor)
    gt_images = [
        v[:, :, gt_top : gt_top + gt_patch_size, gt_left : gt_left + gt_patch_size]
        for v in gt_images
    ]
    if len(gt_images) == 1:
        gt_images = gt_images[0]
    if len(lr_images) == 1:
        lr_images = lr_images[0]
    return gt_images, lr_images


def random_flip_torch(gt, lr):
    if random.random() > 0.5:
        gt, lr = torch.flip(gt, [3]), torch.flip(lr, [3])
    return gt, lr


def augment_pair(gt, lr, gt_patch_size, upscale_factor):
    gt, lr = random_crop_torch(gt, lr, gt_patch_size, upscale_factor)
    return random_flip_torch(gt, lr)
