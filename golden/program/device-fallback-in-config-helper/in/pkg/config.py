# Class: a CPU fallback on CUDA's availability that sets the configuration's device name, in a
# helper module the entry point calls after parsing its options (`config.device = "cpu"`): the
# program's run shows it keeps the model on the CPU, so the check is made true there too.
import torch


def update_config(config):
    config.lr = config.lr * 0.1
    if not torch.cuda.is_available():
        config.device = "cpu"
    return config
