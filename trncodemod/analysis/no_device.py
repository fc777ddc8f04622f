"""Whether a program places nothing on any device, so that its training runs on the CPU on
every machine (the ``device-missing`` pass's question, asked by the ``step-marker`` pass too:
a graph cut in such a step executes nothing on XLA).

The module's own text decides part of it (no `.to(...)`, `.cuda()`, no word naming a device);
the program decides the rest (no callee that moves, no framework or parallel wrapper that
places the model, an entry point that runs it).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.program import ModuleView
from trncodemod.analysis.training import (
    ACCELERATE,
    HF_TRAINER,
    LIGHTNING,
    TrainingProfile,
    is_main_guard,
)

FRAMEWORKS = frozenset({ACCELERATE, LIGHTNING, HF_TRAINER})
# The spellings of a device in a file: any of them, as a lower-case word of a name or a string,
# means the file decides one (`device`, `use_cuda`, `torch_xla`, `"cuda:0"`, `devices`); a word
# that only holds one is not (`plt.xlabel`, `xlim`, `n_neurons`), nor an environment variable's
# name (`NEURON_CC_FLAGS`, which the tool itself may add).
_DEVICE_WORDS = frozenset({"device", "devices", "cuda", "xla", "neuron", "neuronx", "neuroncore"})
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_PROSE = re.compile(r"\s")


def _names_a_device(text: str) -> bool:
    return any(word in _DEVICE_WORDS for word in _WORD.findall(text))


# `torch.cuda` calls that ask about CUDA or seed it, and place nothing: a self-test that seeds
# CUDA where it is there (`if torch.cuda.is_available(): torch.cuda.manual_seed(s)`) still
# builds every tensor on the CPU.
_CUDA_QUERIES = frozenset({"is_available", "manual_seed", "manual_seed_all"})


def places_nothing(facts: FileFacts, cuda_queries: bool = False) -> bool:
    """The module trains, and nothing in its text names or moves to a device; with
    ``cuda_queries``, but for `torch.cuda` queries and seeds (``_CUDA_QUERIES``)."""
    if not facts.profile.trains:
        return False
    identifiers = _without_cuda_queries(facts) if cuda_queries else facts.identifiers
    if any(_names_a_device(text) for text in identifiers):
        return False
    # A string that may name a device (`"cuda:0"`, `"torch.cuda.FloatTensor"`, a `"device"`
    # key), not prose that mentions one (a docstring, a message): those hold spaces.
    if any(_names_a_device(text) for text in facts.strings if not _PROSE.search(text)):
        return False
    return not ({"to", "cuda"} & set(facts.calls))


def trains_without_device(
    program: ModuleView, profile: TrainingProfile, facts: Callable[[], FileFacts | None]
) -> bool:
    """Nothing in the program places this module's training on a device: the module places
    nothing (``facts`` gives the module's facts, asked last), runs from an entry point the tool
    sees, and no other module, framework or parallel wrapper moves it."""
    if (
        program.is_test
        or (program.moves_elsewhere and not _alone(program, profile, facts))
        or not profile.trains
        or set(profile.launchers) & FRAMEWORKS
        # Sharded or distributed training places the model through its wrapper's options
        # and the launcher's environment: not "no device" for certain.
        or profile.parallelism
        or program.parallelism
        or profile.already_xla
    ):
        return False
    if not (profile.is_entry_script or program.role == "entry" or program.entry_points):
        return False  # a library step whose callers the tool cannot see: they may move
    found = facts()
    return found is not None and places_nothing(found)


def _without_cuda_queries(facts: FileFacts) -> frozenset[str]:
    """The module's identifiers, less a `cuda` spelled only in `torch.cuda.<query>(...)` calls."""
    if "cuda" not in facts.identifiers:
        return facts.identifiers
    queries = set()
    for node in ast.walk(facts.tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _CUDA_QUERIES
            and isinstance(node.func.value, ast.Attribute)
            and node.func.value.attr == "cuda"
            and isinstance(node.func.value.value, ast.Name)
            and "torch" in facts.bindings.get(node.func.value.value.id, ())
        ):
            queries.add(id(node.func.value))
    spelled = sum(
        1
        for node in ast.walk(facts.tree)
        if (isinstance(node, ast.Attribute) and node.attr == "cuda")
        or (isinstance(node, ast.Name) and node.id == "cuda")
    )
    if not queries or spelled > len(queries):
        return facts.identifiers
    return facts.identifiers - {"cuda"}


def own_run_without_device(
    program: ModuleView, profile: TrainingProfile, facts: Callable[[], FileFacts | None]
) -> bool:
    """Run as a script (`python module.py`: its `if __name__ == "__main__":` block), the module
    places nothing on a device and nothing its own run reaches does, whatever other entry points
    that import it do (a CPU smoke test at the bottom of a library module; one that seeds CUDA
    where it is there still places nothing)."""
    if (
        program.is_test
        or program.role != "entry"
        or program.own_run_moves
        or set(profile.launchers) & FRAMEWORKS
        or profile.parallelism
        or profile.already_xla
    ):
        return False
    found = facts()
    return found is not None and places_nothing(found, cuda_queries=True)


def _alone(
    program: ModuleView, profile: TrainingProfile, facts: Callable[[], FileFacts | None]
) -> bool:
    """A script that trains at its top level (no `__main__` block: not a library module with a
    self-test), that no other module imports and whose own run reaches no module that moves
    anything: a program of its own (a tutorial collection's CPU script beside scripts that use
    the GPU)."""
    if not profile.is_entry_script or program.imported or program.own_run_moves:
        return False
    found = facts()
    return found is not None and not any(is_main_guard(s) for s in found.tree.body)
