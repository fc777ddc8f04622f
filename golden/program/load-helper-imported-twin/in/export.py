import torch
import torch.nn as nn
from ckpt import load_checkpoint

device = torch.device("cpu")


def main():
    model = nn.Linear(4, 2).to(device)
    state = load_checkpoint("init.pt", device)
    model.load_state_dict(state["model"])
    torch.onnx.export(model, torch.randn(1, 4), "model.onnx")


if __name__ == "__main__":
    main()
