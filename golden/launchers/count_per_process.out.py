import logging

import torch

logger = logging.getLogger(__name__)


def setup(args, model):
    n_gpu = 1
    logger.info("devices: %s", n_gpu)
    args.train_batch_size = args.per_device_batch_size * max(1, n_gpu)
    if n_gpu > 1:
        model = torch.nn.DataParallel(model)
    return model
