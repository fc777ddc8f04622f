"""What kind of training a file does, read once from Python's ``ast`` and asked by every pass.

A rewrite such as "all-reduce the gradients in the optimizer step" is right for plain data
parallel and wrong for sharded, model-parallel or hand-reduced training (issue 12: all 8 such
rewrites on the real corpus were wrong); a process-level change (environment, seeds, compiler
flags) belongs to the script a person launches, not to every module of a library. Those facts
are about the whole file, so they are worked out here once and passes ask them.

Names are resolved through the file's own imports, so aliases work (``import
torch_xla.distributed.parallel_loader as pl`` makes ``pl.MpDeviceLoader`` the torch_xla class).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from trncodemod.analysis.ast_nodes import nodes

# -- what each kind of training is recognised by (qualified-name prefixes) ----------------------
# Parallelism kinds; the passes ask for groups of them (see TrainingProfile).
DDP = "ddp"
XLA_DATA_PARALLEL = "xla-data-parallel"
TORCH_FSDP = "torch-fsdp"
XLA_FSDP = "xla-fsdp"
XLA_SPMD = "xla-spmd"
TENSOR_PARALLEL = "tensor-parallel"
PIPELINE_PARALLEL = "pipeline-parallel"
ZERO = "zero"
NXD = "neuronx-distributed"
DEEPSPEED = "deepspeed"
RPC = "rpc"
APEX_DDP = "apex-ddp"
HAND_REDUCED = "hand-reduced"

_PARALLELISM: dict[str, tuple[str, ...]] = {
    DDP: (
        "torch.nn.parallel.DistributedDataParallel",
        "torch.nn.parallel.distributed.DistributedDataParallel",
    ),
    XLA_DATA_PARALLEL: (
        "torch_xla.core.xla_model.optimizer_step",
        "torch_xla.core.xla_model.reduce_gradients",
    ),
    TORCH_FSDP: (
        "torch.distributed.fsdp",
        "torch.distributed._composable.fsdp",
        "torch.distributed._fsdp",
    ),
    XLA_FSDP: ("torch_xla.distributed.fsdp",),
    XLA_SPMD: (
        "torch_xla.distributed.spmd",
        "torch_xla.experimental.xla_sharding",
        "torch_xla.experimental.spmd_fully_sharded_data_parallel",
        "torch_xla.runtime.use_spmd",
    ),
    TENSOR_PARALLEL: ("torch.distributed.tensor.parallel",),
    PIPELINE_PARALLEL: ("torch.distributed.pipelining", "torch.distributed.pipeline"),
    ZERO: (
        "torch.distributed.optim.ZeroRedundancyOptimizer",
        "torch.distributed.optim.zero_redundancy_optimizer",
        "torch_xla.distributed.zero_redundancy_optimizer",
        "neuronx_distributed.optimizer.NeuronZero1Optimizer",
        "neuronx_distributed.optimizer.zero_redundancy_optimizer",
    ),
    NXD: ("neuronx_distributed", "optimum.neuron.distributed"),
    DEEPSPEED: ("deepspeed",),
    RPC: ("torch.distributed.rpc", "torch.distributed.autograd"),
    APEX_DDP: ("apex.parallel.DistributedDataParallel", "apex.parallel.distributed"),
}
# torch_xla's FSDPv2 lives under torch_xla.experimental and is SPMD as well as FSDP.
_ALSO = {"torch_xla.experimental.spmd_fully_sharded_data_parallel": XLA_FSDP}

#  Plain data parallel: every worker holds the whole model and the gradients must be all-reduced
# once per step ([xla-model, neuron-guide]). Every other kind shards, splits or reduces them by
# itself.
PLAIN_DATA_PARALLEL = frozenset({DDP, XLA_DATA_PARALLEL})

_ALL_REDUCES = (
    "torch.distributed.all_reduce",
    "torch.distributed.distributed_c10d.all_reduce",
    "torch.distributed.reduce_scatter",
    "torch.distributed.reduce_scatter_tensor",
    "torch.distributed.all_reduce_coalesced",
    "torch_xla.core.xla_model.all_reduce",
)

# Launchers: who starts the processes, or a framework that owns the training loop.
PYTHON = "python"
TORCHRUN = "torchrun"
MP_SPAWN = "mp.spawn"
XMP_SPAWN = "xmp.spawn"
ACCELERATE = "accelerate"
LIGHTNING = "lightning"
HF_TRAINER = "hf-trainer"

_LAUNCHERS: dict[str, tuple[str, ...]] = {
    MP_SPAWN: ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes"),
    XMP_SPAWN: ("torch_xla.distributed.xla_multiprocessing.spawn", "torch_xla.launch"),
    ACCELERATE: ("accelerate.Accelerator", "accelerate.accelerator.Accelerator"),
    LIGHTNING: (
        "lightning.Trainer",
        "lightning.pytorch.Trainer",
        "lightning.fabric.Fabric",
        "lightning.Fabric",
        "pytorch_lightning.Trainer",
        "lightning.pytorch.trainer",
        "pytorch_lightning.trainer",
    ),
    HF_TRAINER: (
        "transformers.Trainer",
        "transformers.Seq2SeqTrainer",
        "transformers.trainer.Trainer",
        "transformers.trainer_seq2seq.Seq2SeqTrainer",
        "transformers.TrainingArguments",
        "transformers.Seq2SeqTrainingArguments",
        "transformers.training_args.TrainingArguments",
        "trl.",
        "optimum.neuron.NeuronTrainer",
        "optimum.neuron.NeuronTrainingArguments",
    ),
}
# torchrun hands each process its rank in the environment.
_TORCHRUN_VARIABLES = ("LOCAL_RANK", "LOCAL_WORLD_SIZE", "TORCHELASTIC_RUN_ID")
_INIT_PROCESS_GROUP = (
    "torch.distributed.init_process_group",
    "torch.distributed.distributed_c10d.init_process_group",
)

# Signs that the code is already ported to XLA and cuts its own graphs.
MP_DEVICE_LOADER = "mp-device-loader"
STEP_TRACE = "step-trace"
ACCELERATE_PREPARE = "accelerate-prepare"
NXD_STEP = "nxd-step"
# The file places on the XLA device itself (`torch_xla.device()`, `xm.xla_device()`): written for
# Neuron already, so what it keeps for it (a loader's pin_memory) is its author's choice.
XLA_DEVICE = "xla-device"
_XLA_DEVICE = ("torch_xla.device", "torch_xla.core.xla_model.xla_device")
_DEVICE_LOADERS = (
    "torch_xla.distributed.parallel_loader.MpDeviceLoader",
    "torch_xla.distributed.parallel_loader.ParallelLoader",
)
_STEP_TRACE = ("torch_xla.debug.profiler.StepTrace",)
# NxD's trainer and pipeline engine run the step, graph cut included (`run_train`,
# `neuronx_distributed.trainer`).
_NXD_STEP = ("neuronx_distributed.trainer", "neuronx_distributed.pipeline")

# Precision.
_BF16_VARIABLES = ("XLA_USE_BF16", "XLA_DOWNCAST_BF16")
_AUTOCAST = (
    "torch.autocast",
    "torch.amp.autocast",
    "torch.cuda.amp.autocast",
    "torch.cpu.amp.autocast",
    "torch_xla.amp.autocast",
)
_COMPILE = ("torch.compile",)


@dataclass(frozen=True)
class TrainingProfile:
    """What kind of training one file does. Values are plain data (strings, tuples, bools) so
    the profile travels through the cache and into ``check --format json`` as it is."""

    # A script a person runs (`__main__` guard, arguments parsed or training at the top level),
    # as opposed to a module of a package that only defines classes and functions.
    is_entry_script: bool = False
    # The file trains: it calls `.backward()` or runs a framework trainer's fit/train.
    trains: bool = False
    launchers: tuple[str, ...] = ()
    parallelism: tuple[str, ...] = ()
    already_xla: tuple[str, ...] = ()
    #  `XLA_USE_BF16` / `XLA_DOWNCAST_BF16` named in the file: torch_xla maps f32 to bf16 and
    # `torch.double` to f32, the documented way to keep an accumulator in f32
    # ([neuron-data-types, xla-dtype, neuron-bf16, xla-amp]).
    bf16_downcast: bool = False
    autocast: bool = False
    compiles: bool = False
    # Names whose value is a loader that already moves batches and cuts graphs: variables and
    # attributes bound to an MpDeviceLoader, to a helper function returning one, or to what
    # `accelerator.prepare` returned; and the helper functions themselves.
    device_loaders: frozenset[str] = field(default_factory=frozenset)

    @property
    def plain_data_parallel(self) -> bool:
        """Data parallel with whole replicas and nothing else reducing the gradients."""
        return set(self.parallelism) <= PLAIN_DATA_PARALLEL and ACCELERATE not in self.launchers

    @property
    def reduces_own_gradients(self) -> tuple[str, ...]:
        """The kinds that shard, split or already reduce gradients (nothing to add for them)."""
        kinds = [k for k in self.parallelism if k not in PLAIN_DATA_PARALLEL]
        if ACCELERATE in self.launchers:
            kinds.append(ACCELERATE)
        return tuple(kinds)

    def to_json(self) -> dict:
        return {
            "entry_script": self.is_entry_script,
            "trains": self.trains,
            "launchers": list(self.launchers),
            "parallelism": list(self.parallelism),
            "already_xla": list(self.already_xla),
            "bf16_downcast": self.bf16_downcast,
            "autocast": self.autocast,
            "compiles": self.compiles,
        }

    @classmethod
    def from_json(cls, data: dict) -> TrainingProfile:
        return cls(
            is_entry_script=data["entry_script"],
            trains=data["trains"],
            launchers=tuple(data["launchers"]),
            parallelism=tuple(data["parallelism"]),
            already_xla=tuple(data["already_xla"]),
            bf16_downcast=data["bf16_downcast"],
            autocast=data["autocast"],
            compiles=data["compiles"],
        )


UNKNOWN = TrainingProfile()


def import_specs(tree: ast.Module) -> tuple[dict[str, str], list[str]]:
    """Local name → what an import binds it to: "a.b" (a module) or "[.]*a.b:c" (`from a.b
    import c`, a relative import's dots kept); and the "[.]*a.b" of each `from a.b import *`."""
    names: dict[str, str] = {}
    stars: list[str] = []
    for node in nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".", 1)[0]
                    names.setdefault(head, head)
        elif isinstance(node, ast.ImportFrom):
            spec = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name == "*":
                    stars.append(spec)
                else:
                    names[alias.asname or alias.name] = f"{spec}:{alias.name}"
    return names, stars


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name → the dotted name it stands for, from every absolute import in the file."""
    names = {}
    for local, spec in import_specs(tree)[0].items():
        module, _, name = spec.partition(":")
        if not module.startswith(".") and module:
            names[local] = f"{module}.{name}" if name else module
    return names


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Resolver:
    def __init__(self, tree: ast.Module) -> None:
        self.imports = _imports(tree)

    def qualified(self, node: ast.AST) -> str | None:
        """The dotted name ``node`` stands for through the imports; None for a local name."""
        text = dotted(node)
        if text is None:
            return None
        head, _, rest = text.partition(".")
        base = self.imports.get(head)
        if base is None:
            return None
        return f"{base}.{rest}" if rest else base


def _starts(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p if p.endswith(".") else p + ".") for p in prefixes)


def is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    sides = [node.test.left, *node.test.comparators]
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides
    )


def _runs_at_import(statement: ast.stmt) -> list[ast.AST]:
    """The nodes of a top-level statement that run when the module is imported: not the bodies
    of functions, classes or lambdas it defines (`if is_torch_available(): def f(): ...`)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _calls_attribute(nodes: list[ast.AST], attributes: set[str]) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in attributes
        for n in nodes
    )


_TOP_LEVEL_WORK = {
    "backward",
    "step",
    "fit",
    "train",
    "parse_args",
    "parse_args_into_dataclasses",
    "from_pretrained",
    "cuda",
}
# Models a script builds at import time; not `torch.nn` layers, which libraries build as
# module constants (`ACT_FNS = {"relu": nn.ReLU()}` in transformers' modeling_openai.py).
_MODEL_BUILDERS = ("torchvision.models", "timm.create_model")


def _is_entry_script(tree: ast.Module, resolver: _Resolver) -> bool:
    for statement in tree.body:
        if is_main_guard(statement):
            return True
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            continue
        # Arguments parsed, or a loop that trains, at import time: only a script does that.
        nodes = _runs_at_import(statement)
        if _calls_attribute(nodes, _TOP_LEVEL_WORK):
            return True
        for node in nodes:
            if isinstance(node, ast.Call):
                name = resolver.qualified(node.func) or ""
                # Arguments parsed, or a model built or loaded, when the module is imported.
                if name == "argparse.ArgumentParser" or _starts(name, _MODEL_BUILDERS):
                    return True
            if isinstance(node, ast.Attribute) and resolver.qualified(node) == "sys.argv":
                return True
        # Setting the environment at import time is no sign: libraries do it too
        # (lightning/fabric/__init__.py, transformers' modeling_tf_utils.py).
    return False


def _reduces_grads(argument: ast.AST, tree: ast.Module) -> bool:
    """What a collective reduces is made of gradients: it mentions them, or it is a name the
    module binds to what does, at most three bindings away (`grads = [p.grad.data for p in
    bucket]`, `coalesced = _flatten_dense_tensors(grads)`, `dist.all_reduce(coalesced)`: a
    hand-written data-parallel wrapper's bucketed all-reduce)."""
    if _mentions_grad(argument):
        return True
    if not isinstance(argument, ast.Name):
        return False
    bound: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(node.value)
    names, seen = [argument.id], set()
    for _ in range(3):
        values = [v for n in names if n not in seen for v in bound.get(n, ())]
        seen.update(names)
        if any(_mentions_grad(v) for v in values):
            return True
        names = [n.id for v in values for n in ast.walk(v) if isinstance(n, ast.Name)]
    return False


def _mentions_grad(node: ast.AST) -> bool:
    return any(
        (isinstance(n, ast.Attribute) and n.attr in ("grad", "main_grad"))
        or (isinstance(n, ast.Name) and "grad" in n.id.lower())
        for n in ast.walk(node)
    )


def _device_loaders(tree: ast.Module, resolver: _Resolver) -> frozenset[str]:
    """Names every binding of which is a device loader: variables and attributes assigned one
    (also through helpers and reassignments), and helper functions every ``return`` of which
    gives one. A name bound to anything else anywhere in the file is left out: a loop over it
    might then be a plain loader that needs its own graph cut."""
    bindings: dict[str, list[ast.AST | None]] = {}
    for node in nodes(tree):
        if isinstance(node, ast.arguments):
            # A parameter holds whatever the caller passes.
            every = [*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg]
            for arg in every:
                if arg is not None:
                    bindings.setdefault(arg.arg, []).append(None)
        elif isinstance(node, ast.NamedExpr):
            bindings.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.comprehension, ast.ExceptHandler)):
            for name in _bound_names(node):
                bindings.setdefault(name, []).append(None)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return)]
            bindings.setdefault(node.name, []).extend(returns or [None])
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.With):
                targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
                value = None
            else:
                targets = [node.target]
                value = node.value if isinstance(node, (ast.AnnAssign,)) else None
            for target in targets:
                elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                for element in elements:
                    name = dotted(element)
                    if name:
                        # A tuple target takes the value only from `accelerator.prepare(...)`,
                        # which returns each argument prepared.
                        single = element is target or _is_prepare(value)
                        bindings.setdefault(name, []).append(value if single else None)
    known: set[str] = set()

    def makes_loader(value: ast.AST | None) -> bool:
        if value is None:
            return False
        if _is_prepare(value):
            return True
        if isinstance(value, ast.Call):
            if isinstance(value.func, ast.Attribute) and value.func.attr == "per_device_loader":
                return True
            name = resolver.qualified(value.func) or ""
            return _starts(name, _DEVICE_LOADERS) or dotted(value.func) in known
        return dotted(value) in known

    while True:
        before = len(known)
        for name, values in bindings.items():
            if name not in known and all(makes_loader(v) for v in values):
                known.add(name)
        if len(known) == before:
            return frozenset(known)


def _bound_names(node: ast.comprehension | ast.ExceptHandler) -> list[str]:
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    return [n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)]


def _is_prepare(value: ast.AST | None) -> bool:
    """``accelerator.prepare(...)``/``prepare_data_loader(...)``: on XLA accelerate wraps each
    loader in its MpDeviceLoader (``accelerate.data_loader.MpDeviceLoaderWrapper``)."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in ("prepare", "prepare_data_loader")
        and "accelerator" in (dotted(value.func.value) or "").lower()
    )


def profile_of(tree: ast.Module, text: str, loaders: bool = True) -> TrainingProfile:
    """The training profile of the module ``tree`` parsed from ``text``; without the names
    bound to device loaders unless ``loaders`` (the program model needs only the kinds)."""
    resolver = _Resolver(tree)
    parallelism: set[str] = set()
    launchers: set[str] = set()
    already: set[str] = set()
    autocast = compiles = trains = False
    fits = False
    inits_process_group = False
    # What the file imports counts as used: `from torch_xla.distributed.fsdp import ...` alone
    # says the training is sharded.
    names = set(resolver.imports.values())
    calls: list[ast.Call] = []
    for node in nodes(tree):
        kind = type(node)
        if kind is ast.Name or kind is ast.Attribute:
            name = resolver.qualified(node)
            if name is not None:
                names.add(name)
        elif kind is ast.Call:
            calls.append(node)  # type: ignore[arg-type]
    # Each name the file reaches is looked at once: what it says is the same wherever it is.
    for name in names:
        for kind, prefixes in _PARALLELISM.items():
            if _starts(name, prefixes):
                parallelism.add(kind)
        for prefix, kind in _ALSO.items():
            if _starts(name, (prefix,)):
                parallelism.add(kind)
        for kind, prefixes in _LAUNCHERS.items():
            if _starts(name, prefixes):
                launchers.add(kind)
        if _starts(name, _DEVICE_LOADERS):
            already.add(MP_DEVICE_LOADER)
        if _starts(name, _STEP_TRACE):
            already.add(STEP_TRACE)
        if _starts(name, _NXD_STEP):
            already.add(NXD_STEP)
        if _starts(name, _XLA_DEVICE):
            already.add(XLA_DEVICE)
        autocast = autocast or _starts(name, _AUTOCAST)
        compiles = compiles or _starts(name, _COMPILE)
        inits_process_group = inits_process_group or name in _INIT_PROCESS_GROUP
    for node in calls:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr == "backward":
                trains = True
            elif func.attr in ("fit", "train"):
                fits = True
            if func.attr in ("prepare", "prepare_data_loader"):
                receiver = (dotted(func.value) or "").lower()
                if "accelerator" in receiver:
                    already.add(ACCELERATE_PREPARE)
        name = resolver.qualified(func) or ""
        if _starts(name, _ALL_REDUCES) and node.args and _reduces_grads(node.args[0], tree):
            parallelism.add(HAND_REDUCED)
    if any(v in text for v in _TORCHRUN_VARIABLES) or (
        inits_process_group and not launchers & {MP_SPAWN, XMP_SPAWN}
    ):
        launchers.add(TORCHRUN)
    is_entry = _is_entry_script(tree, resolver)
    if is_entry and not launchers & {TORCHRUN, MP_SPAWN, XMP_SPAWN, ACCELERATE}:
        launchers.add(PYTHON)
    # A framework trainer's fit/train is training only where the framework is used.
    trains = trains or (fits and bool(launchers & {LIGHTNING, HF_TRAINER}))
    return TrainingProfile(
        is_entry_script=is_entry,
        trains=trains,
        launchers=tuple(sorted(launchers)),
        parallelism=tuple(sorted(parallelism)),
        already_xla=tuple(sorted(already)),
        bf16_downcast=any(v in text for v in _BF16_VARIABLES),
        autocast=autocast,
        compiles=compiles,
        device_loaders=_device_loaders(tree, resolver) if loaders else frozenset(),
    )


def profile_of_text(text: str) -> TrainingProfile:
    """The profile of ``text``; the empty profile when Python cannot parse it (the migration
    reports the syntax error)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return UNKNOWN
    return profile_of(tree, text)
