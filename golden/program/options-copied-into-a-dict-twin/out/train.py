# Twin: the launch line passes the flag (`python train.py --force_cpu`): the key is True on
# every launch. The device choice is still rewritten (`"xla" if not config["force_cpu"] else
# "cpu"`, the user's opt-out kept), and the verdict says the model stays on the CPU, at the flag.
import argparse

import torch
import torch_xla


def get_training_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--force_cpu", action="store_true")
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()
    config = dict()
    for arg in vars(args):
        config[arg] = getattr(args, arg)
    config["layers"] = 2
    return config


def train(config):
    device = torch.device("xla" if not config["force_cpu"] else "cpu")
    model = torch.nn.Linear(8, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    for step in range(10):
        x, y = torch.randn(4, 8).to(device), torch.randn(4, 2).to(device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    train(get_training_args())
