# Class: a CPU fallback on CUDA's availability in a configuration helper. Twin: the check only
# turns pinned memory off, which decides no device: it stays as written (a note says it is
# False on Trainium), and the model still reaches the accelerator.
import torch


def update_config(config):
    config.lr = config.lr * 0.1
    config.pin_memory = True
    if not torch.cuda.is_available():
        config.pin_memory = False
    return config
