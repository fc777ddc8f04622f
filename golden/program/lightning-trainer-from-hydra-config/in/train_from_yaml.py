# Class (as train_defaults.py): the configuration is a YAML file the launch path reads with
# OmegaConf, whose `_target_` is Lightning's Trainer and whose `accelerator` asks for a GPU.
from hydra.utils import instantiate
from omegaconf import OmegaConf

from model import Net, loader

if __name__ == "__main__":
    cfg = OmegaConf.load("configs/trainer.yaml")
    trainer = instantiate(cfg.trainer)
    trainer.fit(Net(), loader())
