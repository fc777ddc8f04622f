# Twin of map_location_helper_returned: the helper loads to "cpu" already; the device
# rewrite leaves the load alone.
import os

import torch
import torch.nn as nn

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
    if torch.cuda.is_available():
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    inference("g.pt")


if __name__ == "__main__":
    main()
