# Class: a Lightning `Trainer` whose device arguments the evaluator decides to the CPU on the
# target. Here Lightning 1.x's `gpus` is `torch.cuda.device_count()`, which is 0 on the target
# (ViT-CIFAR's main.py): Lightning trains on the CPU, so the entry point does not run on the
# accelerator, with a blocker at the Trainer call that says so and what to use instead.
import argparse

import pytorch_lightning as pl
import torch

from model import Net, loader

parser = argparse.ArgumentParser()
parser.add_argument("--max-epochs", default=10, type=int)
args = parser.parse_args()
args.gpus = torch.cuda.device_count()

if __name__ == "__main__":
    trainer = pl.Trainer(gpus=args.gpus, max_epochs=args.max_epochs, weights_summary="full")
    trainer.fit(Net(), loader())
