import torch


class ReplayWrapper:
    def __init__(self, capacity, async=True):
        self.capacity = capacity
        self.buffer = torch.zeros(capacity)
