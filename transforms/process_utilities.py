"""Process utilities: seeding the XLA RNG and activation checkpointing in their torch_xla
spellings ([xla-api, neuron-pt29, xla-checkpoint]). A rank-0 guarded `print` is left as it is: it
works unchanged
under torch_xla, so `xm.master_print` would be a change nobody needs (issue 23)."""

from __future__ import annotations

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.helpers import get_full_name_for_node
from libcst.metadata import ParentNodeProvider, PositionProvider

from trncodemod.analysis.facts import FileFacts, may_resolve
from trncodemod.analysis.nodes import find, walk
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.rewriting.calls import append_keyword
from trncodemod.targets import Target

_MANUAL_SEED = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
# What starts the worker processes that train: their parent must not start the XLA runtime first
# (it would hold the NeuronCores the workers need; torch_xla's spawn docs: no XLA before it).
_SPAWNERS = frozenset(
    {
        "torch.multiprocessing.spawn",
        "torch.multiprocessing.start_processes",
        "torch.multiprocessing.Process",
        "multiprocessing.Process",
        "torch_xla.distributed.xla_multiprocessing.spawn",
        "torch_xla.launch",
    }
)
_XLA_SEEDS = frozenset(
    {
        "torch_xla.core.xla_model.set_rng_state",
        "torch_xla.manual_seed",
        "torch_xla.torch_xla.manual_seed",
    }
)
_TORCH_CHECKPOINT = "torch.utils.checkpoint.checkpoint"
_TORCH_CHECKPOINT_SEQUENTIAL = "torch.utils.checkpoint.checkpoint_sequential"


class XlaSeed(Rule):
    """## What it does
    Adds the XLA seed right after `torch.manual_seed(s)` (also `torch.random.manual_seed`):
    `torch_xla.manual_seed(s)` on torch-xla 2.5 and later, `xm.set_rng_state(s)` on xla-2.1. The
    original call stays. The seed is written twice, so it must be free of side effects: a name,
    an attribute, a number, arithmetic on those or `int(...)` of them; any other seed is reported.
    In a file that places nothing on a device itself, it is added only where the program's run
    shows a run that trains calling that seed (a seeding helper, `initialize(args, seed)` in a
    utility module, called by the training script of a program that moves its model to the
    device elsewhere): that seed is the training process's. A data script's seed is left.
    Nothing is added where the next statement already seeds the XLA RNG, nor in a DataLoader
    worker's seeding (a function that calls `get_worker_info()` or is passed as
    `worker_init_fn`): workers load data on the host and never use the XLA RNG. In a function
    that then starts the training workers (`mp.spawn`, `start_processes`, a `Process`,
    `xmp.spawn`, `torch_xla.launch`), the seed is reported, not added: it would start the XLA
    runtime in the parent, which would hold the NeuronCores the workers need, and leave the
    workers' RNG unseeded.

    ## Why
    `torch.manual_seed` does not seed the XLA device's RNG: `torch.randn(..., device="xla")`
    draws the same numbers for seeds 0 and 1 ([xla-api, measured-seeding]), so dropout masks and
    on-device initialisation ignore the seed. Keeping `torch.manual_seed` keeps the CPU
    initialisation of weights deterministic. `torch_xla.manual_seed` exists from torch-xla 2.5
    ([xla-model, xla-api]).

    ## Example
    ```python
    torch.manual_seed(args.seed)
    ```

    ## Use instead
    ```python
    import torch_xla

    torch.manual_seed(args.seed)
    torch_xla.manual_seed(args.seed)
    ```
    """

    code = "TRN331"
    name = "xla-seed"
    summary = "`torch.manual_seed(s)` does not seed the XLA RNG → add the XLA seed after it"
    safety = Safety.SAFE
    severity = Severity.WARNING
    sources = ("xla-api", "xla-model", "measured-seeding")


class XlaActivationCheckpoint(Rule):
    """## What it does
    On xla-2.9, rewrites `torch.utils.checkpoint.checkpoint(fn, *args)` (any import spelling) to
    `torch_xla.utils.checkpoint.checkpoint(fn, *args, use_reentrant=True)`, keeping
    `use_reentrant=True` and `preserve_rng_state=`. Reported instead: `use_reentrant=False` or a
    computed `use_reentrant`, other keywords (`context_fn=`, `determinism_check=`, `debug=`),
    `**kwargs`, and `checkpoint_sequential`, which torch_xla does not provide. Other targets are
    left alone.

    ## Why
    On torch-neuronx 2.9 `torch.utils.checkpoint.checkpoint` raises
    `AttributeError: module 'torch' has no attribute 'xla'`; Neuron's fix is
    `torch_xla.utils.checkpoint.checkpoint(..., use_reentrant=True)`
    ([neuron-manifest, neuron-pt29, xla-checkpoint]). torch_xla's version accepts only
    `use_reentrant=True` ("XLA currently does not support use_reentrant==False", pytorch/xla#5766)
    and `preserve_rng_state`. torch 2.9 also defaults to the reentrant variant when `use_reentrant`
    is not passed, so behaviour is kept.

    ## Example
    ```python
    from torch.utils.checkpoint import checkpoint
    h = checkpoint(self.block, h)
    ```

    ## Use instead
    ```python
    import torch_xla.utils.checkpoint
    h = torch_xla.utils.checkpoint.checkpoint(self.block, h, use_reentrant=True)
    ```
    """

    code = "TRN334"
    name = "xla-activation-checkpoint"
    summary = "`torch.utils.checkpoint.checkpoint` fails on torch-xla 2.9 → torch_xla's"
    safety = Safety.SAFE
    severity = Severity.ERROR
    sources = ("neuron-pt29", "xla-checkpoint", "neuron-manifest")


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _pure(node: cst.BaseExpression, qualified) -> bool:
    """Whether evaluating ``node`` twice is the same as once: names, attributes, numbers,
    arithmetic on those and ``int(...)`` of them."""
    if isinstance(node, cst.Name | cst.Integer):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value, qualified)
    if isinstance(node, cst.BinaryOperation):
        return _pure(node.left, qualified) and _pure(node.right, qualified)
    if isinstance(node, cst.UnaryOperation):
        return _pure(node.expression, qualified)
    if isinstance(node, cst.Call) and qualified(node.func) & {"builtins.int"}:
        return (
            len(node.args) == 1
            and node.args[0].keyword is None
            and not node.args[0].star
            and _pure(node.args[0].value, qualified)
        )
    return False


class ProcessUtilities(Pass):
    name = "utilities"
    rules = (XlaSeed, XlaActivationCheckpoint)
    needles = ("manual_seed", "checkpoint")
    imports_seen = frozenset({"torch_xla"})  # ``_places_on_device``

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._seed_after: dict[cst.BaseSmallStatement, cst.BaseExpression] = {}
        self._checkpoint: set[cst.Call] = set()

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        if not target.is_xla:
            return False  # visit_Module walks nothing
        # torch.manual_seed: an XLA seed added or reported, where the target has one.
        if target.api("manual_seed") and may_resolve(facts, _MANUAL_SEED):
            return True
        # torch.utils.checkpoint.checkpoint(_sequential): rewritten or reported, where the
        # target has torch_xla's checkpoint.
        return bool(target.api("checkpoint")) and may_resolve(
            facts, (_TORCH_CHECKPOINT, _TORCH_CHECKPOINT_SEQUENTIAL)
        )

    def visit_Module(self, node: cst.Module) -> bool:
        return self.target.is_xla  # TorchNeuron: none of these apply ([torchneuron-overview])

    # -- seeding -----------------------------------------------------------------------------
    def _seeds_xla(self, node: cst.CSTNode | None) -> bool:
        if isinstance(node, cst.SimpleStatementLine):
            node = node.body[0]
        return (
            isinstance(node, cst.Expr)
            and isinstance(node.value, cst.Call)
            and self.is_any(node.value.func, _XLA_SEEDS)
        )

    def _next_statement(self, small: cst.BaseSmallStatement) -> cst.CSTNode | None:
        line = self.get_metadata(ParentNodeProvider, small, None)
        if line is None:
            return None
        smalls = list(line.body)
        index = smalls.index(small)
        if index + 1 < len(smalls):
            return smalls[index + 1]
        if isinstance(line, cst.SimpleStatementSuite):
            return None
        block = self.get_metadata(ParentNodeProvider, line, None)
        siblings = list(getattr(block, "body", ()))
        position = next((i for i, s in enumerate(siblings) if s is line), len(siblings))
        return siblings[position + 1] if position + 1 < len(siblings) else None

    def _seeds_training(self, call: cst.Call) -> bool:
        """The program's run shows a training run calling this seed (`initialize(args, seed)`
        in a helper module the training script calls) in a program that places values on a
        device elsewhere: it seeds the training process, whose XLA RNG needs the seed too."""
        program = self.run.program
        if not program.training_seeds or not program.moves_elsewhere:
            return False
        line = self.get_metadata(PositionProvider, call).start.line
        return self.run.to_original(line) in program.training_seeds

    def _places_on_device(self) -> bool:
        """Whether the file puts anything on a device: a file that never does (a data script,
        a CPU utility) gets no XLA seed and no `import torch_xla` (issue 14 item 8)."""
        if self.run.profile.already_xla:
            return True
        module = self._wrapper.module
        # A file another pass has made import torch_xla is already an XLA file, as the next run
        # would see it (nanochat: the seed came only on a second run, which was not a no-op).
        if any(_imports_torch_xla(statement) for statement in module.body):
            return True
        return self.device_facts(module).places_on_device

    def _plan_seed(self, call: cst.Call) -> None:
        api = self.target.api("manual_seed")
        if (
            not api
            or not (self._places_on_device() or self._seeds_training(call))
            or self._in_worker_init(call)
        ):
            return
        small = self.get_metadata(ParentNodeProvider, call, None)
        if isinstance(small, cst.Assign) and small.value is not call:
            small = None
        if not isinstance(small, cst.Expr | cst.Assign):
            self.report(
                call,
                XlaSeed,
                f"seed the XLA RNG too: call `{api.expr}(<seed>)` as a statement right after "
                "this torch.manual_seed",
                False,
            )
            return
        if self._seeds_xla(self._next_statement(small)):
            return
        spawn = self._spawn_after(call)
        if spawn is not None:
            self.report(
                call,
                XlaSeed,
                f"torch.manual_seed does not seed the XLA RNG, but `{api.expr}(...)` here would "
                f"start the XLA runtime in the process that starts the workers at line {spawn} "
                "(it would hold the NeuronCores they need): seed the XLA RNG in the function "
                "each worker runs",
                False,
            )
            return
        seed = call.args[0].value if len(call.args) == 1 and not call.args[0].star else None
        if seed is None or not _pure(seed, self.module_names):
            self.report(
                call,
                XlaSeed,
                "torch.manual_seed does not seed the XLA RNG; this seed is computed here, so bind "
                f"it to a variable once and pass it to torch.manual_seed and `{api.expr}`",
                False,
            )
            return
        if self.report(
            call,
            XlaSeed,
            f"torch.manual_seed does not seed the XLA RNG: `{api.expr}({_code(seed)})` added",
            True,
        ):
            self._seed_after[small] = seed

    def _spawn_after(self, call: cst.Call) -> int | None:
        """The line of a call that starts worker processes (`mp.spawn(main_worker, ...)`) after
        ``call`` in the same function (or at the module's top level), where there is one."""
        scope: cst.CSTNode | None = self.get_metadata(ParentNodeProvider, call, None)
        while scope is not None and not isinstance(scope, cst.FunctionDef | cst.Module):
            scope = self.get_metadata(ParentNodeProvider, scope, None)
        if scope is None:
            return None
        seeded = self.get_metadata(PositionProvider, call).start.line
        for node in walk(scope):
            if isinstance(node, cst.Call) and self.is_any(node.func, _SPAWNERS):
                line = self.get_metadata(PositionProvider, node).start.line
                if line > seeded:
                    return line
        return None

    def _in_worker_init(self, call: cst.Call) -> bool:
        """``call`` seeds a DataLoader worker: its function asks for the worker's info or is
        passed as ``worker_init_fn=`` (also through ``functools.partial``). Workers load data
        on the host and never touch the XLA RNG; seeding it there would start the XLA runtime in
        each worker (timm's ``_worker_init``)."""
        function = self.get_metadata(ParentNodeProvider, call, None)
        while function is not None and not isinstance(function, cst.FunctionDef):
            function = self.get_metadata(ParentNodeProvider, function, None)
        if function is None:
            return False
        name = function.name.value
        for node in walk(function.body):
            if isinstance(node, cst.Call) and self.is_any(
                node.func, {"torch.utils.data.get_worker_info"}
            ):
                return True
        for arg in find(self._wrapper.module, cst.Arg):
            if arg.keyword is None or arg.keyword.value != "worker_init_fn":
                continue
            value = arg.value
            if isinstance(value, cst.Call) and value.args:  # partial(_worker_init, ...)
                value = value.args[0].value
            if isinstance(value, cst.Name) and value.value == name:
                return True
        return False

    def _xla_seed(self, seed: cst.BaseExpression) -> cst.Expr:
        return cst.Expr(cst.Call(self.emit(self.target.api("manual_seed")), [cst.Arg(seed)]))

    # -- activation checkpointing ------------------------------------------------------------
    def _plan_checkpoint(self, call: cst.Call) -> None:
        api = self.target.api("checkpoint")
        if not api:
            return  # torch.utils.checkpoint works on torch-xla before 2.9 ([neuron-pt29, xla-checkpoint])
        problems = []
        for arg in call.args:
            if arg.star == "**":
                problems.append("`**kwargs`")
            elif arg.keyword is None:
                continue
            elif arg.keyword.value == "use_reentrant":
                if not (isinstance(arg.value, cst.Name) and arg.value.value == "True"):
                    problems.append(f"`use_reentrant={_code(arg.value)}`")
            elif arg.keyword.value != "preserve_rng_state":
                problems.append(f"`{arg.keyword.value}=`")
        if problems:
            self.report(
                call,
                XlaActivationCheckpoint,
                f"torch.utils.checkpoint fails on torch-xla 2.9, and `{api.expr}` accepts only "
                f"`use_reentrant=True` and `preserve_rng_state=` (this call passes "
                f"{', '.join(problems)}): rewrite the call for `{api.expr}(fn, *args, "
                "use_reentrant=True)`",
                False,
            )
            return
        if self.report(
            call,
            XlaActivationCheckpoint,
            f"torch.utils.checkpoint fails on torch-xla 2.9 → `{api.expr}(..., "
            "use_reentrant=True)`",
            True,
        ):
            self._checkpoint.add(call)

    def visit_Call(self, node: cst.Call) -> None:
        if self.is_any(node.func, _MANUAL_SEED):
            self._plan_seed(node)
        elif self.is_any(node.func, {_TORCH_CHECKPOINT}):
            self._plan_checkpoint(node)
        elif self.is_any(node.func, {_TORCH_CHECKPOINT_SEQUENTIAL}) and self.target.api(
            "checkpoint"
        ):
            self.report(
                node,
                XlaActivationCheckpoint,
                "torch.utils.checkpoint.checkpoint_sequential fails on torch-xla 2.9 and "
                "torch_xla has none: wrap each segment in "
                f"`{self.target.api('checkpoint').expr}(segment, x, use_reentrant=True)`",
                False,
            )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if original_node not in self._checkpoint:
            return updated_node
        args = list(updated_node.args)
        call = updated_node.with_changes(func=self.emit(self.target.api("checkpoint")), args=args)
        if not any(a.keyword is not None and a.keyword.value == "use_reentrant" for a in args):
            call = append_keyword(call, "use_reentrant", cst.Name("True"))
        RemoveImportsVisitor.remove_unused_import(
            self.context, "torch.utils.checkpoint", "checkpoint"
        )
        return call

    # -- statements --------------------------------------------------------------------------
    def _with_seeds(self, original, updated) -> list[cst.BaseSmallStatement]:
        body: list[cst.BaseSmallStatement] = []
        for old, new in zip(original.body, updated.body, strict=True):
            body.append(new)
            if old in self._seed_after:
                body.append(self._xla_seed(self._seed_after[old]))
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ):
        if not any(small in self._seed_after for small in original_node.body):
            return updated_node
        if len(original_node.body) > 1:
            return updated_node.with_changes(body=self._with_seeds(original_node, updated_node))
        seed = self._xla_seed(self._seed_after[original_node.body[0]])
        return cst.FlattenSentinel([updated_node, cst.SimpleStatementLine([seed])])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if not any(small in self._seed_after for small in original_node.body):
            return updated_node
        return updated_node.with_changes(body=self._with_seeds(original_node, updated_node))


def _imports_torch_xla(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Import) and any(
            get_full_name_for_node(alias.name).split(".")[0] == "torch_xla" for alias in small.names
        ):
            return True
        if isinstance(small, cst.ImportFrom) and small.module is not None:
            if get_full_name_for_node(small.module).split(".")[0] == "torch_xla":
                return True
    return False
