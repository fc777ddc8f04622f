# Twin of lightning-trainer-decided-to-cpu: Trainers whose device the evaluator cannot decide
# to the CPU. No device argument and no 1.x keyword: it may be Lightning 2.x, whose
# `accelerator="auto"` probes the machine, so whether it trains on the target stays unknown.
from pytorch_lightning import Trainer

from model import Net, loader

if __name__ == "__main__":
    trainer = Trainer(max_epochs=10)
    trainer.fit(Net(), loader())
