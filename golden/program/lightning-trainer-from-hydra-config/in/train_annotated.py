# Class (as train_hydra_main.py): the model is built by Hydra's factory too, so what `.fit` is
# handed is not followed; the names' annotations say what they are (`model: LightningModule`,
# `trainer: Trainer`, lightning-hydra-template's src/train.py): a framework owns the step.
import hydra
from lightning import LightningModule, Trainer


def train(cfg):
    model: LightningModule = hydra.utils.instantiate(cfg.model)
    trainer: Trainer = hydra.utils.instantiate(cfg.trainer)
    trainer.fit(model=model)


@hydra.main(config_path="configs", config_name="trainer")
def main(cfg):
    train(cfg)


if __name__ == "__main__":
    main()
