# Twin of step-method-called-from-batch-loop: the step method is also called once outside
# any loop (a warm-up step), so it is not a per-iteration step to cut inside; the loop that
# moves its batch is cut at the end of its iteration, as before.
import torch
import torch_xla
from torch import nn

from trainer import Trainer


def main():
    trainer = Trainer(nn.Linear(4, 2)).to(torch_xla.device())
    trainer.setup()
    trainer.train_step(torch.randn(8, 4).to(torch_xla.device()), torch.randn(8, 2).to(torch_xla.device()))
    device = torch_xla.device()
    for _ in range(2):
        for x, y in [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(5)]:
            x, y = x.to(device), y.to(device)
            trainer.train_step(x, y)
            torch_xla.sync()


if __name__ == "__main__":
    main()
