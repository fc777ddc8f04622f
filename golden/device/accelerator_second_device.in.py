# The rpc parameter server's model parallel shape: a second device of one process is not
# portable, so the accelerator is not replaced where it is formatted into one, and the check
# that enables it is kept; a device passed to a CUDA-only query is not rewritten (the query is
# the cuda-calls pass's to report).
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, num_gpus=0):
        super().__init__()
        self.num_gpus = num_gpus
        device = torch.device("cpu")
        self.conv1 = nn.Conv2d(1, 32, 3, 1).to(device)
        if torch.accelerator.is_available() and self.num_gpus > 1:
            acc = torch.accelerator.current_accelerator()
            device = torch.device(f"{acc}:1")
        self.fc = nn.Linear(32, 10).to(device)


def describe():
    return torch.cuda.get_device_properties(torch.device("cuda")).name
