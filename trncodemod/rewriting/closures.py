"""Building step closures: host work that must run after a step's graph has executed.

``xm.add_step_closure(fn, args=(...))`` runs ``fn`` at the next sync, when the tensors it reads are
already on the host side of the barrier. Closures bind late, so every value that can change before
that sync is passed through ``args`` ([xla-model, neuron-guide], ``torch_xla/core/xla_model.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

CLOSURE_NAME = "_log"


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def step_closure(
    body: Sequence[cst.BaseStatement],
    params: Sequence[str],
    args: Sequence[cst.BaseExpression],
    register: cst.BaseExpression,
    name: str = CLOSURE_NAME,
) -> list[cst.BaseStatement]:
    """``def _log(params): body`` followed by ``register(_log, args=(args,))``.

    ``register`` is the target's ``add_step_closure`` expression; ``args`` line up with ``params``;
    ``name`` replaces ``_log`` where the file already spells that name.
    """
    function = cst.FunctionDef(
        name=cst.Name(name),
        params=cst.Parameters(params=[cst.Param(cst.Name(p)) for p in params]),
        body=cst.IndentedBlock(body=list(body)),
    )
    call = f"{_code(register)}({name}"
    if args:
        texts = [_code(a) for a in args]
        call += f", args=({', '.join(texts)}{',' if len(texts) == 1 else ''})"
    call += ")"
    return [function, cst.parse_statement(call)]
