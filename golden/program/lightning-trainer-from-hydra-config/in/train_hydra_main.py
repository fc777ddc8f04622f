# Class: `<an object the evaluator did not follow>.fit(<a LightningModule>)`: whatever built the
# object, a framework owns the training step (`training_step`). Here the configuration comes
# from Hydra's command line (`@hydra.main`), which the evaluator does not compose, so the
# Trainer's arguments are not decided: "cannot tell" at the line that builds it, never "no step".
import hydra

from model import Net, loader


def train(cfg):
    trainer = hydra.utils.instantiate(config=cfg.trainer, replace_sampler_ddp=False)
    trainer.fit(Net(), loader())


@hydra.main(config_path="configs", config_name="trainer")
def main(cfg):
    train(cfg)


if __name__ == "__main__":
    main()
