# Class: the device rewritten to XLA reaches `torch.load(map_location=<device>)` through a
# helper's parameter, and the helper returns what it loads (`load_checkpoint(path, device)`,
# hifi-gan's inference): torch.load cannot restore onto XLA (it raises), so the load goes to
# "cpu" where every caller in the module hands the result to load_state_dict(), which copies
# into the model's parameters on the device. Twins: map_location_helper_returned_twin (already
# "cpu"), map_location_helper_used_blocker (a loaded tensor used as it is: a blocker).
import os

import torch
import torch.nn as nn
import torch_xla

device = None


def load_checkpoint(filepath, device):
    assert os.path.isfile(filepath)
    checkpoint_dict = torch.load(filepath, map_location="cpu")
    return checkpoint_dict


def inference(path):
    generator = nn.Linear(4, 4).to(device)
    state_dict_g = load_checkpoint(path, device)
    generator.load_state_dict(state_dict_g["generator"])
    generator.eval()
    with torch.no_grad():
        for _ in range(3):
            x = torch.randn(1, 4).to(device)
            print(generator(x).cpu().numpy())


def main():
    global device
    device = torch_xla.device()
    inference("g.pt")


if __name__ == "__main__":
    main()
