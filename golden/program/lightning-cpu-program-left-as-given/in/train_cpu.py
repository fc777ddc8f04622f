# Class: XLA rewrites in a program the evaluator shows trains on the CPU, because the framework
# that owns its loop is decided to train there (ViT-CIFAR's main.py: Lightning 1.x's `gpus` is
# `torch.cuda.device_count()`, 0 on the target). The module every entry point that runs it is
# such a run is left as given: its seed, loader and save rewrites are reported "not applied",
# and TRN027 at the Trainer says what to do. shared.py is also run by train_xla.py, which trains
# on XLA: it keeps its rewrites. Twin: lightning-cpu-program-left-as-given-twin.
import argparse

import pytorch_lightning as pl
import torch

from model import Net, dataset
from shared import save_state

parser = argparse.ArgumentParser()
parser.add_argument("--seed", default=0, type=int)
args = parser.parse_args()
torch.manual_seed(args.seed)
args.gpus = torch.cuda.device_count()
train_dl = torch.utils.data.DataLoader(dataset(), batch_size=8, shuffle=True, pin_memory=True)

if __name__ == "__main__":
    net = Net()
    trainer = pl.Trainer(gpus=args.gpus, max_epochs=10, weights_summary="full")
    trainer.fit(net, train_dl)
    torch.save(net.state_dict(), "net.pth")
    save_state(net)
