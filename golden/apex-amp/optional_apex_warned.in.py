"""A scaler helper whose apex path is optional: the program runs without apex."""

import torch

try:
    from apex import amp

    has_apex = True
except ImportError:
    amp = None
    has_apex = False


class ApexScaler:
    def __call__(self, loss, optimizer):
        with amp.scale_loss(loss, optimizer) as scaled_loss:
            scaled_loss.backward()
        optimizer.step()

    def state_dict(self):
        return amp.state_dict()


class NativeScaler:
    def __init__(self):
        self._scaler = torch.amp.GradScaler()
