# Twin of scheduler_verbose: a scheduler without `verbose=`, the `verbose=` of a class that is
# not torch's (a logger, the project's own scheduler): nothing changes. A value that calls a
# function is reported, since dropping it would drop the call.
import logging

import torch.optim as optim

from schedulers import WarmupScheduler


def schedulers(optimizer, args):
    plateau = optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=3)
    warmup = WarmupScheduler(optimizer, 1000, verbose=True)
    logging.basicConfig(level=logging.INFO)
    noisy = optim.lr_scheduler.StepLR(optimizer, 10, verbose=args.get("verbose"))
    return plateau, warmup, noisy
