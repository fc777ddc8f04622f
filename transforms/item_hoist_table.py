"""What the ``item-hoist`` pass recognises, as data: the logging calls and methods whose reads it
moves to log steps, the host checks that make a read drive control flow, and what makes a
tensor's value a float (its method, a loss's name). ``item_hoist.py`` interprets it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

import libcst as cst

from trncodemod.analysis.loops import dotted, root_name

_LOGGING_LEVELS = ("debug", "info", "warning", "warn", "error", "critical", "exception", "log")
LOG_FUNCTIONS = frozenset(
    {
        "builtins.print",
        "wandb.log",
        "mlflow.log_metric",
        "mlflow.log_metrics",
        "torch_xla.core.xla_model.master_print",
        *(f"logging.{level}" for level in _LOGGING_LEVELS),
    }
)
# method name -> pattern the receiver's last name must match ("" = any receiver)
LOG_METHODS = {
    "set_postfix": "",
    "set_postfix_str": "",
    "set_description": "",
    "add_scalar": "",
    "add_scalars": "",
    "log_metrics": "",
    **{level: r"log" for level in _LOGGING_LEVELS},
    "log": r"log|accelerator|wandb|run|tracker",
}


def is_log_call(
    node: cst.BaseExpression, is_any: Callable[[cst.CSTNode, Iterable[str]], bool]
) -> bool:
    """``node`` is a call that prints or logs its arguments (``print``, ``logging.info``,
    ``logger.warning``, ``pbar.set_description``); ``is_any`` resolves a name through imports."""
    if not isinstance(node, cst.Call):
        return False
    if is_any(node.func, LOG_FUNCTIONS):
        return True
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value in LOG_METHODS:
        pattern = LOG_METHODS[func.attr.value]
        receiver = dotted(func.value) or root_name(func.value) or ""
        last = receiver.rsplit(".", 1)[-1]
        return not pattern or bool(re.search(pattern, last, re.IGNORECASE))
    return False


HOST_CHECKS = frozenset(
    f"{module}.{name}" for module in ("math", "numpy") for name in ("isnan", "isinf", "isfinite")
)
FLOAT_METHODS = frozenset({"mean", "float", "double", "half", "bfloat16", "std", "var", "norm"})
LOSS_NAME = re.compile(r"loss|criterion", re.IGNORECASE)
