import torch
import torch_xla

from models import TCN


def main():
    device = torch_xla.device()
    model = TCN(4, 2).to(device)
    model.load_state_dict(torch.load("tcn.pt", map_location="cpu"))
    model.eval()
    with torch.no_grad():
        print(model(torch.randn(1, 4, 32).to(device)).argmax(-1))


if __name__ == "__main__":
    main()
