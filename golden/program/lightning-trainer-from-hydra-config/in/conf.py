from dataclasses import dataclass
from typing import Any, Optional


@dataclass
class TrainerConf:
    _target_: str = "pytorch_lightning.trainer.Trainer"
    gpus: Any = None
    accelerator: Any = None
    devices: Any = None
    max_epochs: int = 10
    precision: int = 32
    resume_from_checkpoint: Optional[str] = None


@dataclass
class ProjectTrainerConf(TrainerConf):
    callbacks: Any = None
