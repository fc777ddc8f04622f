# Class: a bare torch.load (no map_location) whose result goes only into load_state_dict, of a
# model, an optimizer or a scheduler: directly, by name, or an item of it (`checkpoint["model"]`).
# torch.load restores each tensor where it was saved, and a GPU run saved them on "cuda": without
# CUDA it raises "Attempting to deserialize object on a CUDA device" (measured). Loaded to "cpu",
# load_state_dict copies them to the model's device, Adam's moments to its parameters' (measured).
import argparse

import torch
import torch.nn as nn
import torch_xla


def restore(model: nn.Module, optimizer: torch.optim.Optimizer, path: str) -> None:
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--saved_model", default="")
    parser.add_argument("--FT", action="store_true")
    opt = parser.parse_args()
    device = torch_xla.device()
    model = nn.Linear(16, 4).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
    if opt.saved_model != "":
        if opt.FT:
            model.load_state_dict(torch.load(opt.saved_model, map_location="cpu"), strict=False)
        else:
            model.load_state_dict(torch.load(opt.saved_model, map_location="cpu"))
        restore(model, optimizer, opt.saved_model)
        scheduler.load_state_dict(
            torch.load(
                opt.saved_model + ".sched",
                map_location="cpu",
            )
        )
        model.load_state_dict(torch.load(opt.saved_model, weights_only=True, map_location="cpu"))
    for step in range(100):
        x = torch.randn(8, 16).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()


if __name__ == "__main__":
    main()
