"""Launchers sized by the GPU count: `mp.spawn(fn, nprocs=torch.cuda.device_count())` (R4)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

import libcst as cst

from trncodemod.analysis.device import analyse
from trncodemod.analysis.facts import FileFacts
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass, per_tree
from trncodemod.targets import Target


class DeviceCountLauncher(Rule):
    """## What it does
    On XLA targets, reports `torch.multiprocessing.spawn(fn, nprocs=n)` (and `start_processes`)
    where `n` is, or is bound to, `torch.cuda.device_count()` or
    `torch.accelerator.device_count()`, and names the launcher line to use instead. Nothing is
    rewritten: the script's process start-up must change shape. On the `neuron` target the
    count itself becomes `torch.accelerator.device_count()` (TRN315).

    ## Why
    Under torch_xla both counts are 0 (`torch.cuda.device_count()` returns 0 without a driver,
    reference R13, measured; `torch.accelerator` is not the XLA device, R1), so the launcher
    starts no process, or a process group of size 0. `xmp.spawn(nprocs>1)` is an error on
    Neuron from torch-xla 2.6; the documented launcher is torchrun, one process per NeuronCore
    (`torchrun --nproc_per_node=32` on trn1.32xlarge, 2 on trn1.2xlarge), each reading its rank
    from the environment (reference R4). On torch-xla 2.1, `xmp.spawn(fn, args=...)` without
    `nprocs` starts one process per NeuronCore. A blocker: the port does not train while it is
    left.

    ## Example
    ```python
    world_size = torch.cuda.device_count()
    mp.spawn(run, args=(world_size,), nprocs=world_size)
    ```

    ## Use instead
    ```python
    # torchrun --nproc_per_node=32 train.py
    run(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]))
    ```
    """

    code = "TRN025"
    name = "device-count-launcher"
    summary = "`mp.spawn(nprocs=torch.cuda.device_count())`: 0 processes on Trainium (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    source = "reference R1, R4, R13"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


# -- first-stage helpers, shared by the device-related passes' `candidate` tests ---------------
# `FileFacts` keeps one module per imported name (`try: from a import x` / `except: from b import
# x` keeps only one), where LibCST's qualified names give every binding. These work out every
# import binding of the file (from its statements only, not its expressions) and the names
# reached through all of them. (A general fact: facts.py could keep it.)
_imports_cache: tuple[ast.Module, dict[str, frozenset[str]], frozenset[str], frozenset[str]] | None
_imports_cache = None


def _statements(body: Iterable[ast.stmt]) -> Iterable[ast.stmt]:
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                stack.extend(inner)
        for handler in getattr(node, "handlers", ()):
            stack.extend(handler.body)
        for case in getattr(node, "cases", ()):
            stack.extend(case.body)


def _import_facts(
    facts: FileFacts,
) -> tuple[dict[str, frozenset[str]], frozenset[str], frozenset[str]]:
    """(every local name bound by an import -> every module or object it is bound to; every
    module named by an import statement, in full; the qualified names reached through all the
    bindings: ``facts.qualified`` widened where one name is bound to several modules)."""
    global _imports_cache
    cached = _imports_cache
    if cached is not None and cached[0] is facts.tree:
        return cached[1], cached[2], cached[3]
    names: dict[str, set[str]] = {}
    modules: set[str] = set()
    for node in _statements(facts.tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules.add(alias.name)
                if alias.asname:
                    names.setdefault(alias.asname, set()).add(alias.name)
                else:
                    head = alias.name.split(".", 1)[0]
                    names.setdefault(head, set()).add(head)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                modules.add(full)
                names.setdefault(alias.asname or alias.name, set()).add(full)
    qualified = set(facts.qualified)
    for bound in names.values():
        qualified |= bound
        if len(bound) > 1:
            # Every chain read through one of the modules is read through the others too.
            for name in facts.qualified:
                for chosen in bound:
                    if name.startswith(chosen + "."):
                        rest = name[len(chosen) :]
                        qualified.update(other + rest for other in bound)
    frozen = {name: frozenset(bound) for name, bound in names.items()}
    _imports_cache = (facts.tree, frozen, frozenset(modules), frozenset(qualified))
    return frozen, frozenset(modules), frozenset(qualified)


def import_bindings(facts: FileFacts) -> dict[str, frozenset[str]]:
    """Every name an import binds, with every module or object it is bound to."""
    return _import_facts(facts)[0]


def reached(facts: FileFacts) -> frozenset[str]:
    """Every dotted name LibCST may resolve in the file (through all its import bindings)."""
    return _import_facts(facts)[2]


def imported_modules(facts: FileFacts) -> frozenset[str]:
    """Every module (and ``module.name`` of a from-import) an import statement names, in full."""
    return _import_facts(facts)[1]


def calls_one_of(facts: FileFacts, names: Iterable[str]) -> bool:
    """Whether the file may call a function whose qualified name is one of ``names``: it reaches
    the name, and calls it by its last part (`dist.init_process_group(...)`) or by a name an
    import binds to it (`from torch.distributed import init_process_group as init`)."""
    bindings, _modules, qualified = _import_facts(facts)
    for name in names:
        if name not in qualified:
            continue
        if name.rsplit(".", 1)[-1] in facts.calls:
            return True
        if any(name in bindings.get(call, ()) for call in facts.calls):
            return True
    return False


_LAUNCHER_SPAWNS = ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")
_DEVICE_COUNTS = ("torch.cuda.device_count", "torch.accelerator.device_count")


class Launchers(Pass):
    name = "launchers"
    rules = (DeviceCountLauncher,)
    needles = ("device_count",)

    @classmethod
    def applies_to(cls, target) -> bool:  # type: ignore[no-untyped-def]
        return super().applies_to(target) and target.is_xla

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # The only report is for a launcher the device analysis finds (`analysis.device.
        # _launcher_count`): torch.multiprocessing.spawn/start_processes called with `nprocs=`
        # whose value is, or is bound to, a torch.cuda/torch.accelerator device_count() call.
        return (
            "nprocs" in facts.identifiers
            and calls_one_of(facts, _LAUNCHER_SPAWNS)
            and calls_one_of(facts, _DEVICE_COUNTS)
        )

    def visit_Module(self, node: cst.Module) -> None:
        facts = per_tree(node, "device", lambda module: analyse(module, self.qualified_names))
        script = self.context.filename or "train.py"
        for spawn, count in facts.launchers.items():
            fn = _code(spawn.args[0].value) if spawn.args else "main"
            if self.target.torch_xla.startswith("2.1"):
                use = f"xmp.spawn({fn}, args=...) without nprocs (one process per NeuronCore)"
            else:
                use = (
                    f"`torchrun --nproc_per_node=<NeuronCores: 2 on trn1.2xlarge, 32 on "
                    f"trn1.32xlarge> {script}`, calling {fn}(int(os.environ['LOCAL_RANK']), ...) "
                    "once per process, with the world size from os.environ['WORLD_SIZE']"
                )
            self.report(
                spawn,
                DeviceCountLauncher,
                f"this launcher is sized by `{_code(count)}`, which is 0 on Trainium, so no "
                f"training process starts: launch with {use}",
                False,
            )
