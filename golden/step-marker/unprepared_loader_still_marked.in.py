import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model, optimizer, train_dl = accelerator.prepare(model, optimizer, train_dl)
    # A loader accelerate never saw still needs its own cut.
    for batch in extra_dl:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
