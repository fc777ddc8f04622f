import torch
from accelerate import Accelerator
from torch.utils.data.distributed import DistributedSampler


def main():
    accelerator = Accelerator()
    sampler = DistributedSampler(dataset)
    model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)
    for batch in train_dl:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main()
