import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

from utils import setup, train


def main():
    setup()
    model = FSDP(torch.nn.Linear(8, 8))
    optimizer = torch.optim.AdamW(model.parameters())
    train(model, optimizer)


if __name__ == "__main__":
    main()
