# Class: an optimizer over parameter groups built from `named_parameters()` in a loop
# (`params += [{"params": [value], "lr": ...}]`), in a method the trainer's constructor calls,
# before the trainer is moved with `Trainer(net).cuda()`: on the XLA device the move makes new
# parameters, the optimizer steps the old ones and nothing trains (a Faster R-CNN's
# `get_optimizer`). The verdict says so at the optimizer, whatever the groups look like.
import torch

from model import Net, Trainer


def main():
    trainer = Trainer(Net()).cuda()
    for _ in range(5):
        trainer.train_step(torch.randn(8, 4).cuda())


if __name__ == "__main__":
    main()
