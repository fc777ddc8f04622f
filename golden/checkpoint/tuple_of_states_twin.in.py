# Class: a save of several state dicts in a tuple or list. Twin: a tuple of host values (a step
# count and a name) holds no state dict: the tool cannot tell what it holds, and says so.
import torch


def main(step, name, path):
    torch.save((step, name), path)
