# Class: a trainer's `__init__` that builds its optimizer over `self.model`, then rebinds the
# moved model (`self.model = self.model.to(self.device)`) with a log line between that does not
# read it: the move is put first (TRN053).
# Twin: optimizer_before_move_attribute_twin.
import logging

import torch


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.device = device
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=3e-4)
        logging.info("optimizer ready")
        self.model = self.model.to(self.device)
