# Class (as train_device_count.py): `accelerator: cpu` in the YAML configuration the Trainer's
# arguments come from.
import argparse

import yaml
from pytorch_lightning import Trainer

from model import Net, loader

parser = argparse.ArgumentParser()
parser.add_argument("--config", default="configs/cpu.yaml")
args = parser.parse_args()

if __name__ == "__main__":
    with open(args.config) as file:
        config = yaml.safe_load(file)
    trainer = Trainer(**config["trainer"])
    trainer.fit(Net(), loader())
