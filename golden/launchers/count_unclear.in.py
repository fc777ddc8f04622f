import torch


def configure(config):
    devices = torch.cuda.device_count()
    config.update(devices=devices)
    return config
