# Class: a torch.cuda call that raises on a host without CUDA (measured-cuda-raises:
# memory_summary() raises KeyError, get_device_name()/get_device_properties() raise "Found no
# NVIDIA driver", Stream() raises), left in the program on the launch path, under the flag that
# moves the model as well as unguarded: the script stops there, a blocker, not a note (twin:
# raising_call_twin).
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("-gpu", action="store_true")
args = parser.parse_args()

print(torch.cuda.get_device_name(0))
print(torch.cuda.get_device_properties(0).total_memory)


def evaluate(net, loader):
    for images, _ in loader:
        net(images)
    if args.gpu:
        print(torch.cuda.memory_summary(), end="")
    stream = torch.cuda.Stream()
    return stream
