# Twin of map_location_helper_returned: the helper's result is not only handed to
# load_state_dict() (`ckpt["mean"]` is used as a tensor), so loading it to "cpu" would leave
# that tensor off the device; the load stays and, since it runs on every launch (main() →
# inference() → load_checkpoint()), it is a blocker (torch.load cannot restore onto XLA).
import torch
import torch.nn as nn

device = None


def load_checkpoint(filepath, device):
    return torch.load(filepath, map_location=device)


def inference(path):
    model = nn.Linear(4, 4).to(device)
    ckpt = load_checkpoint(path, device)
    model.load_state_dict(ckpt["model"])
    with torch.no_grad():
        for _ in range(3):
            x = torch.randn(1, 4).to(device) - ckpt["mean"]
            print(model(x).cpu().numpy())


def main():
    global device
    if torch.cuda.is_available():
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    inference("m.pt")


if __name__ == "__main__":
    main()
