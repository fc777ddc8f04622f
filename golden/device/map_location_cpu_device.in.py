# Twin of map_location_maybe_device: the device handed to the helper is the CPU by design (an
# export script that runs on the host): torch.load can restore there, nothing changes.
import torch
import torch.nn as nn


def load_model(path, device):
    checkpoint = torch.load(path, map_location=device)
    return checkpoint


def main():
    device = torch.device("cpu")
    model = nn.Linear(4, 2)
    model.load_state_dict(load_model("model.chkpt", device)["model"])
    torch.onnx.export(model, torch.randn(1, 4), "model.onnx")


if __name__ == "__main__":
    main()
