"""What a model is called, by the last name of what code calls (`model(x)`, `self.netG(z)`):
one test for the LibCST loops (``loops``) and the ``ast`` summaries (``scopes``), which the
program model builds before any pass runs and so cannot import ``loops``."""

from __future__ import annotations

import re

# What a model is called, as the last name of what a loop calls: `model(x)`, `self.ema_model(x)`,
# `netG(z)`, `self.unet(x, t)` (a model's own layers, `block(x)`, are not: the loop that calls
# them is the model's forward, which never gets a cut).
MODEL_NAME = re.compile(
    r"(^|_)(model|net|unet|encoder|decoder|generator|discriminator|transformer|backbone)\d*$"
    r"|^net[A-Z]\w{0,2}$",
    re.IGNORECASE,
)
# ... unless the name says it does something else with it (`build_model`, `save_model`).
_NOT_A_RUN = re.compile(
    r"^(build|load|save|get|create|init|make|setup|prepare|freeze|unwrap|wrap|copy|export|"
    r"print|log|count|update|set|reset|to|compile|summary|show|describe)_",
    re.IGNORECASE,
)


def is_model_name(name: str) -> bool:
    return bool(MODEL_NAME.search(name)) and not _NOT_A_RUN.search(name)
