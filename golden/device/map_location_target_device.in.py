# Class: torch.load(..., map_location=<the training device>) however the device is spelled
# (a name bound by a device choice, an attribute, a parameter). On Trainium the device is XLA,
# onto which torch.load cannot restore (it raises `don't know how to restore data location ...
# (tagged with xla:0)`, measured with torch-xla 2.9.0). Where all it loads goes into
# load_state_dict (directly, by name, or an item of it) it loads to "cpu"; a whole object
# loaded to the device is reported, a blocker where the load always runs.
import argparse

import torch
import torch.nn as nn


def restore(model: nn.Module, path: str, device: torch.device) -> None:
    checkpoint = torch.load(path, map_location=device)
    model.load_state_dict(checkpoint["model"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--load", default="")
    args = parser.parse_args()
    args.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = args.device
    model = nn.Linear(16, 4)
    if args.load:
        model.load_state_dict(torch.load(args.load, map_location=args.device))
        restore(model, args.load, device)
    model.to(device)
    embeddings = torch.load("embeddings.pt", map_location=device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(100):
        x = torch.randn(8, 16).to(device) + embeddings
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()


def resume(model: nn.Module, path: str, gpu: int) -> None:
    # A CUDA location built as text (moco's `"cuda:{}".format(args.gpu)`, an f-string): no CUDA
    # device on Trainium either.
    checkpoint = torch.load(path, map_location="cuda:{}".format(gpu))
    model.load_state_dict(checkpoint["state_dict"])
    model.load_state_dict(torch.load(path, map_location=f"cuda:{gpu}"))
    extra = torch.load(path, map_location="cuda:" + str(gpu))
    print(extra)
