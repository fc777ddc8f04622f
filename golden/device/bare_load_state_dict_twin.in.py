# Must not fire (twin of bare_load_state_dict): a load that gives its location (positional or
# by keyword, or maybe in **kwargs), and a load whose result is used otherwise than by
# load_state_dict: a whole pickled model loaded to "cpu" would stay there, and a value read from
# the checkpoint (`best_acc`) may be a tensor the code then uses where it was saved.
import torch
import torch.nn as nn


def main(path: str, options: dict) -> None:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(16, 4)
    model.load_state_dict(torch.load(path, "cpu"))
    model.load_state_dict(torch.load(path, map_location=None))
    model.load_state_dict(torch.load(path, **options))
    checkpoint = torch.load(path)
    model.load_state_dict(checkpoint["model"])
    best_acc = checkpoint["best_acc"]
    model = torch.load(path)
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for step in range(100):
        x = torch.randn(8, 16).to(device)
        loss = model(x).pow(2).mean() + best_acc
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main("model.pt", {})
