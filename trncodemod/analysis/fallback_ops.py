"""The op table of the ``cpu-fallback`` pass (``data/fallback_ops.toml``: ops that fall back to the
CPU, make shapes depend on the data, or that neuronx-cc rejects), its names grouped as the two
stages look them up, and the torch names that make a value visibly boolean, an integer tensor or
a host value. Data that ``fallback_scan`` and ``fallback_facts`` interpret; no tree is read here.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

from trncodemod.targets import Target

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


# -- the op table (data/fallback_ops.toml) ------------------------------------------------------
@dataclass(frozen=True)
class Op:
    key: str
    code: str  # the code of the rule that reports the op (cpu_fallback_rules)
    functions: frozenset[str]
    prefixes: tuple[str, ...]
    methods: frozenset[str]
    when: str
    counter: str
    fix: str
    dynamic_shape: bool
    references: bool
    neuron_counter: str = ""
    values: bool = False  # a mention that is not called counts too (called under another name)
    training_only: bool = False  # not reported where no training run reaches the module

    def cost(self, target: Target) -> str:
        """What the op costs on ``target``: measured on XLA; on TorchNeuron as documented."""
        return self.neuron_counter if self.neuron_counter and not target.is_xla else self.counter


@cache
def fallback_ops() -> tuple[Op, ...]:
    text = resources.files("trncodemod").joinpath("data/fallback_ops.toml").read_text("utf-8")
    return tuple(
        Op(
            key=key,
            code=row["rule"],
            functions=frozenset(row.get("functions", ())),
            prefixes=tuple(row.get("prefixes", ())),
            methods=frozenset(row.get("methods", ())),
            when=row.get("when", ""),
            counter=row["counter"],
            fix=row["fix"],
            dynamic_shape=row.get("dynamic_shape", False),
            references=row.get("references", False),
            neuron_counter=row.get("neuron_counter", ""),
            values=row.get("values", False),
            training_only=row.get("training_only", False),
        )
        for key, row in tomllib.loads(text)["ops"].items()
    )


# -- what an expression visibly is --------------------------------------------------------------
INT_DTYPES = frozenset(
    f"torch.{name}"
    for name in ("int", "int8", "int16", "int32", "int64", "long", "short", "uint8", "uint16")
    + ("uint32", "uint64")
)
INT_METHODS = frozenset({"long", "int", "short", "byte", "char", "argmax", "argmin", "argsort"})
INT_FUNCTIONS = frozenset(
    f"torch.{name}"
    for name in ("randint", "randint_like", "argmax", "argmin", "argsort", "randperm")
)
_BOOL_NAMES = [
    "isnan",
    "isinf",
    "isfinite",
    "isneginf",
    "isposinf",
    "isin",
    "signbit",
    "logical_and",
    "logical_or",
    "logical_not",
    "logical_xor",
    "eq",
    "ne",
    "gt",
    "ge",
    "lt",
    "le",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "not_equal",
]
BOOL_FUNCTIONS = frozenset(f"torch.{name}" for name in _BOOL_NAMES)
BOOL_METHODS = frozenset({"bool", *_BOOL_NAMES})
HOST_METHODS = frozenset({"cpu", "numpy"})
# A program's own helpers that convert to NumPy, by their name (`at.tonumpy(x)`, `to_numpy(x)`):
# what they return is a host array.
HOST_HELPERS = frozenset({"tonumpy", "to_numpy", "as_numpy", "asnumpy"})

# Facts.is_int: what makes an operand visibly an integer tensor.
INT_SOURCES = (*INT_FUNCTIONS, *INT_DTYPES, "torch.arange")


# -- the table's names, as the two stages look them up -------------------------------------------
@dataclass(frozen=True)
class OpNames:
    """The op table as the first stage reads it: names whose mention alone may be reported, and
    the names of ops with a condition the candidate test checks itself."""

    references: tuple[str, ...]  # op.references: any mention
    functions: tuple[str, ...]  # ops reported on any call (or with a condition not checked here)
    methods: frozenset[str]
    dynamic_functions: tuple[str, ...]  # dynamic_shape ops (recompilation's TRN431)
    dynamic_methods: frozenset[str]
    where_functions: tuple[str, ...]  # "one-argument"
    integer_functions: tuple[str, ...]  # "integer-operand"
    integer_methods: frozenset[str]
    sparse_functions: tuple[str, ...]  # "sparse-keyword"
    # Every op's functions, prefixes and methods (Facts.op_of_call asks scopes only for these).
    all_functions: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    all_methods: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()  # op.values: a mention that is not called
    training: tuple[str, ...] = ()  # op.training_only: its functions


@cache
def op_names() -> OpNames:
    references, functions, methods = [], [], set()
    dynamic_functions, dynamic_methods = [], set()
    where_functions, integer_functions, integer_methods, sparse_functions = [], [], set(), []
    for op in fallback_ops():
        names = [*op.functions, *(p.rstrip(".") for p in op.prefixes)]
        if op.dynamic_shape:
            dynamic_functions += names
            dynamic_methods |= op.methods
        if op.references:
            references += names
        elif op.when == "one-argument":
            where_functions += names
            methods |= op.methods
        elif op.when == "integer-operand":
            integer_functions += names
            integer_methods |= op.methods
        elif op.when == "sparse-keyword":
            sparse_functions += names
            methods |= op.methods
        else:  # no condition, or one the first stage does not check ("tensor-repeats")
            functions += names
            methods |= op.methods
    return OpNames(
        tuple(references),
        tuple(functions),
        frozenset(methods),
        tuple(dynamic_functions),
        frozenset(dynamic_methods),
        tuple(where_functions),
        tuple(integer_functions),
        frozenset(integer_methods),
        tuple(sparse_functions),
        frozenset(f for op in fallback_ops() for f in op.functions),
        tuple(p for op in fallback_ops() for p in op.prefixes),
        frozenset(name for op in fallback_ops() for name in op.methods),
        frozenset(f for op in fallback_ops() if op.values for f in op.functions),
        tuple(f for op in fallback_ops() if op.training_only for f in op.functions),
    )
