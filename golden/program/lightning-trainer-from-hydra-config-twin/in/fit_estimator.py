# Twin of train_hydra_main.py: `.fit(...)` of an object the evaluator did not follow, but what it
# is handed is no LightningModule (a scikit-learn estimator fitted on arrays): no framework
# owns a training step here, so the entry point has no step.
import hydra
import numpy as np


@hydra.main(config_path="configs", config_name="trainer")
def main(cfg):
    estimator = hydra.utils.instantiate(cfg.estimator)
    estimator.fit(np.zeros((8, 2)), np.zeros(8))


if __name__ == "__main__":
    main()
