# Must not fire (twin of map_location_target_device): loads to the CPU, to a device the script
# keeps on the CPU, or through a function, are what torch.load restores anywhere.
import torch
import torch.nn as nn
import torch_xla


def main(path: str) -> None:
    device = torch_xla.device()
    host = torch.device("cpu")
    model = nn.Linear(16, 4)
    model.load_state_dict(torch.load(path, map_location="cpu"))
    model.load_state_dict(torch.load(path, map_location=host))
    model.load_state_dict(torch.load(path, map_location=lambda storage, location: storage))
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(100):
        x = torch.randn(8, 16).to(device)
        loss = model(x).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main("model.pt")
