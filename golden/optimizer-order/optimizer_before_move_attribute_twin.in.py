# Twin of optimizer_before_move_attribute: a log line between that reads the model (its
# parameter count, taken on the CPU) keeps the order as it is; so does a move of the wrapped
# module's inner model, which is not the model the optimizer took.
import logging

import torch


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=3e-4)
        logging.info("%d parameters", sum(p.numel() for p in self.model.parameters()))
        self.model = self.model.to(device)


class Wrapped:
    def __init__(self, wrapper, device):
        self.optimizer = torch.optim.Adam(wrapper.parameters(), lr=3e-4)
        wrapper.module.to(device)
