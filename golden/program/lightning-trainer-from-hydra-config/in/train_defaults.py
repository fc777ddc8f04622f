# Class: a Lightning Trainer built by Hydra's factory from a configuration,
# `hydra.utils.instantiate(conf, ...)`, whose `_target_` names Lightning's Trainer: a call of that
# Trainer with the configuration's fields (a dataclass's, its bases' included) as keyword
# arguments, and the extra ones given to `instantiate`. Here the dataclass defaults give a
# Lightning 1.x Trainer (`resume_from_checkpoint` is a 1.x keyword) no GPU and no accelerator:
# it trains on the CPU, so the entry point does not run on the accelerator (TRN027 at the call).
# Twin: lightning-trainer-from-hydra-config-twin.
import hydra

from conf import ProjectTrainerConf
from model import Net, loader

if __name__ == "__main__":
    trainer = hydra.utils.instantiate(ProjectTrainerConf(max_epochs=3), callbacks=None)
    trainer.fit(Net(), loader())
