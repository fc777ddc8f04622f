# Twin of optimizer-param-groups-before-move: the network is moved before the trainer builds
# its optimizer (`Trainer(Net().cuda())`), so the groups hold the moved parameters: it runs.
import torch

from model import Net, Trainer


def main():
    trainer = Trainer(Net().cuda())
    for _ in range(5):
        trainer.train_step(torch.randn(8, 4).cuda())


if __name__ == "__main__":
    main()
