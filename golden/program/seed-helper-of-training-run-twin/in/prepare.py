import torch

from utils import initialize

if __name__ == "__main__":
    initialize(0)
    torch.save(torch.randn(32, 4), "features.pt")
