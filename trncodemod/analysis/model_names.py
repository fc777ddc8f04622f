"""What a model is called, by the last name of what code calls (`model(x)`, `self.netG(z)`):
one test for the LibCST loops (``loops``) and the ``ast`` summaries (``scopes``), which the
program model builds before any pass runs and so cannot import ``loops``."""

from __future__ import annotations

import ast
import re

from trncodemod.analysis.training import dotted

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


# `optimizer`, `opt_d`, `optim2`, and a capital-letter suffix (dcgan's `optimizerD`/`optimizerG`;
# not `options`).
OPTIMIZER_NAME = re.compile(
    r"(^|_)(optim|optimizer|opt|optimiser)(\d*|_\w*|(?-i:[A-Z])\w*)$", re.IGNORECASE
)
SCALER_NAME = re.compile(r"scaler", re.IGNORECASE)


def ast_is_scaler_call(call: ast.Call) -> bool:
    """``loss_scaler(loss, optimizer, clip_grad=...)``: a callable named for a loss scaler, given
    an optimizer among its first three arguments (timm's `NativeScaler` and the copies DeiT,
    ConvNeXt, MAE and Swin keep: its `__call__` runs the backward pass and the optimizer
    step). ``loops.is_scaler_call`` is the same test on LibCST's tree."""
    callee = dotted(call.func)
    if callee is None or not SCALER_NAME.search(callee.rsplit(".", 1)[-1]):
        return False
    given = [*call.args[:3], *(k.value for k in call.keywords if k.arg == "optimizer")]
    for value in given:
        name = dotted(value)
        if name is not None and OPTIMIZER_NAME.search(name.rsplit(".", 1)[-1]):
            return "sched" not in name.lower()
    return False
