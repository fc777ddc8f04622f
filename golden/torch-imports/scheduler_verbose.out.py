# Class: a learning-rate scheduler built with `verbose=`, which torch 2.9 no longer takes
# (TypeError where the scheduler is built): the keyword is dropped, whatever module spelling
# reaches the scheduler; it only printed each change of the learning rate. Found at first sight
# in an object-detection trainer (RetinaNet's `ReduceLROnPlateau(optimizer, patience=3,
# verbose=True)`). Twin: scheduler_verbose_twin (no `verbose=`, another class's `verbose=`, a
# value that calls a function: reported, not dropped).
import torch.optim as optim
from torch.optim.lr_scheduler import MultiStepLR, StepLR


def schedulers(optimizer, args):
    plateau = optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    steps = MultiStepLR(
        optimizer,
        milestones=[30, 60],
        gamma=0.1,
    )
    step = StepLR(optimizer, 10)
    return plateau, steps, step
