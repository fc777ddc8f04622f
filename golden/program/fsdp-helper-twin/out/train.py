import torch
from torch.nn.parallel import DistributedDataParallel as DDP

from utils import setup, train


def main():
    setup()
    model = DDP(torch.nn.Linear(8, 8), gradient_as_bucket_view=True)
    optimizer = torch.optim.AdamW(model.parameters())
    train(model, optimizer)


if __name__ == "__main__":
    main()
