# Must not fire: the same builder in a script that trains nothing (it loads weights and predicts
# under `no_grad`): weight norm's fallback costs only in a training step, which this script has
# none of. The case that fires is weight_norm_in_script.
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm


def build(width):
    return nn.Sequential(weight_norm(nn.Linear(4, width)), nn.ReLU(), nn.Linear(width, 2))


def main():
    model = build(16)
    model.append(weight_norm(nn.Linear(2, 2)))
    model.load_state_dict(torch.load("model.pt"))
    model.eval()
    with torch.no_grad():
        print(model(torch.randn(1, 4)).argmax(-1))


if __name__ == "__main__":
    main()
