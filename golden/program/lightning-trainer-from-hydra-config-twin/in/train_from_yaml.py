# Twin (as train_defaults.py): the YAML configuration asks for no GPU (`accelerator: auto`): no
# CUDA blocker is made up from the file.
from hydra.utils import instantiate
from omegaconf import OmegaConf

from model import Net, loader

if __name__ == "__main__":
    cfg = OmegaConf.load("configs/trainer.yaml")
    trainer = instantiate(cfg.trainer)
    trainer.fit(Net(), loader())
