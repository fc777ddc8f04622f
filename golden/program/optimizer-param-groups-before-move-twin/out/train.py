# Twin of optimizer-param-groups-before-move: the network is moved before the trainer builds
# its optimizer (`Trainer(Net().cuda())`), so the groups hold the moved parameters: it runs.
import torch
import torch_xla

from model import Net, Trainer


def main():
    trainer = Trainer(Net().to(torch_xla.device()))
    device = torch_xla.device()
    for _ in range(5):
        trainer.train_step(torch.randn(8, 4).to(device))


if __name__ == "__main__":
    main()
