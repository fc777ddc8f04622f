# Twin of train_annotated.py: both objects come from Hydra's factory, but neither name is
# annotated as Lightning's (`nn.Module` is no LightningModule, and `runner` has no annotation):
# nothing says a framework owns a training step, so the entry point has no step.
import hydra
import torch


@hydra.main(config_path="configs", config_name="trainer")
def main(cfg):
    model: torch.nn.Module = hydra.utils.instantiate(cfg.model)
    runner = hydra.utils.instantiate(cfg.runner)
    runner.fit(model)


if __name__ == "__main__":
    main()
