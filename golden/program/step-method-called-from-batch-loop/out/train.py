# Class: the step is a method of a trainer object (`trainer.train_step(x, y)`, the trainer made
# with `Trainer(model).cuda()`) that a loop calls once per batch after moving the batch to the
# device; the method reads its loss on the host right after its optimizer step. The cut goes in
# the method, after the optimizer step and before the read, and not at the end of the loop,
# where it would come after the read (batch I's Faster R-CNN).
import torch
import torch_xla
from torch import nn

from trainer import Trainer


def main():
    trainer = Trainer(nn.Linear(4, 2)).to(torch_xla.device())
    trainer.setup()
    device = torch_xla.device()
    for _ in range(2):
        for x, y in [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(5)]:
            x, y = x.to(device), y.to(device)
            trainer.train_step(x, y)


if __name__ == "__main__":
    main()
