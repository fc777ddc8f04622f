# Class: torch.load(map_location=<the rewritten device>) in the `if __name__ == "__main__":`
# block, what it loads not only handed to load_state_dict() (`state_dict.pop(...)`, the
# pytorch-unet predict shape): the block runs on every launch, so the report is a blocker, not
# a conditional load's error. Twin: map_location_helper_returned_twin (already "cpu").
import argparse

import torch
import torch.nn as nn

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="model.pth")
    args = parser.parse_args()
    net = nn.Linear(4, 2)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net.to(device=device)
    state_dict = torch.load(args.model, map_location=device)
    mask_values = state_dict.pop("mask_values", [0, 1])
    net.load_state_dict(state_dict)
    with torch.no_grad():
        print(net(torch.randn(1, 4).to(device)).cpu(), mask_values)
