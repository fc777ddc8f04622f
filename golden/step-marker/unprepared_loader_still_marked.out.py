import torch
import torch_xla
from accelerate import Accelerator
from torch.utils.data import DataLoader as Loader


def main():
    accelerator = Accelerator()
    model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)
    # A loader accelerate never saw still needs its own cut.
    extra_dl = Loader(extra_set, batch_size=8, drop_last=True)
    for batch in extra_dl:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main()
