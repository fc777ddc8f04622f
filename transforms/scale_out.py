"""Scale out: a single-device training script becomes data parallel over every NeuronCore, one
process each, launched by torchrun ([xla-loader, neuron-guide, xla-model]; Neuron's mnist_mlp
`train.py` →
`train_torchrun.py`, [neuron-mnist-torchrun]). Rules and their documentation: ``scale_out_rules.py``."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from trncodemod.transforms.data_parallel import OptimizerStepReduce
from trncodemod.transforms.scale_out_rules import (
    DownloadRendezvous,
    LearningRateScale,
    OneNeuronCore,
    RankZeroPrint,
    ScaleOut,
    ScaleOutUncertain,
)
from trncodemod.transforms.scale_out_shape import SOME, Plan, ScaleOutShape, Uncertain

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import find_step_loops
from trncodemod.analysis.nodes import find
from trncodemod.analysis.training import ACCELERATE, PYTHON, TORCHRUN
from trncodemod.targets import Api, Target

# NeuronCores per instance, one process each ([xla-model, neuron-guide]; Neuron programming guide).
LAUNCH = {
    "xla": ("trn1.32xlarge", 32, "2 on trn1.2xlarge, 64 on trn2.48xlarge"),
    "neuron": ("trn2.48xlarge", 64, "one process per NeuronCore"),
}
_SAMPLERS = (
    "torch.utils.data.DistributedSampler",
    "torch.utils.data.distributed.DistributedSampler",
)
_BROADCAST = Api("xm.broadcast_master_param", "torch_xla.core.xla_model", "xm")
_IS_MASTER = Api("xm.is_master_ordinal()", "torch_xla.core.xla_model", "xm")
_RENDEZVOUS = Api("xm.rendezvous", "torch_xla.core.xla_model", "xm")
# Datasets that download into a folder without a lock (torchvision's `download=True`).
_DOWNLOADING = "torchvision.datasets."
_INIT = Api("torch.distributed.init_process_group", "torch.distributed", "")
_ACCELERATORS = ("accelerate.Accelerator", "accelerate.accelerator.Accelerator")
_ENVIRON = Api("os.environ", "os", "")
_PRINT_KEYWORDS = frozenset({"flush"})
# `a + b` binds looser than `*`; `a * b`, `a / b` and the atoms do not.
_TIGHT = (cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def launch_line(backend: str, script: str) -> str:
    """The torchrun line that runs ``script`` once per NeuronCore of the target's largest
    instance, with the other sizes."""
    instance, cores, others = LAUNCH[backend]
    return f"torchrun --nproc_per_node={cores} {script} ({instance}; {others})"


class ScaleOutPass(ScaleOutShape):
    name = "scale-out"
    rules = (
        ScaleOut,
        OneNeuronCore,
        ScaleOutUncertain,
        LearningRateScale,
        RankZeroPrint,
        DownloadRendezvous,
    )
    needles = ("backward", "DataLoader", "print", "lr")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Both findings are about a training entry script: one that calls `.backward()` (the
        # profile's `trains`) through a loop over a loader.
        return "backward" in facts.identifiers and bool(facts.loops)

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.plan: Plan | None = None
        self.prints: set[cst.Call] = set()
        self.rates: set[cst.Arg] = set()
        # Downloads the master makes first: the first and the last statement of each run.
        self.wait_before: set[cst.SimpleStatementLine] = set()
        self.wait_after: set[cst.SimpleStatementLine] = set()

    # -- deciding ----------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        profile = self.run.profile
        single = (
            profile.is_entry_script
            and profile.trains
            and set(profile.launchers) <= {PYTHON}
            and not profile.parallelism
            and not self._calls(node, _SAMPLERS)
        )
        if not single:
            self._note_accelerate_launch(node)
            return  # a library module, or distributed already: never scaled out again
        loops = [i for i in find_step_loops(node).values() if i.kind == "train"]
        if not loops:
            return
        anchor = loops[0].node
        instance, cores, _ = LAUNCH[self.target.backend]
        if self._script().endswith(".ipynb"):
            # torchrun starts a script's processes; a notebook's kernel is one process. Scaling
            # out starts from the notebook exported as a script.
            self.report(
                anchor,
                OneNeuronCore,
                f"this notebook trains as one process, on one NeuronCore (of {cores} on a "
                f"{instance}): to train data parallel, export it as a script (`jupyter nbconvert "
                f"--to script {self._script()}`) and run trncodemod with `--scale-out` on that "
                "script, which torchrun launches",
                False,
            )
            return
        if not self.settings.scale_out:
            self.report(
                anchor,
                OneNeuronCore,
                f"this script trains as one process, on one NeuronCore (of {cores} on a "
                f"{instance}): `--scale-out` makes it data parallel (a DistributedSampler on the "
                "training loader, gradients all-reduced in the optimizer step, the master "
                "printing and saving), launched with "
                f"`{launch_line(self.target.backend, self._script())}`",
                False,
            )
            return
        if not self.target.is_xla:
            self.report(
                anchor,
                ScaleOutUncertain,
                "not rewritten for the neuron target: TorchNeuron scales out with "
                '`torch.distributed.init_process_group(backend="neuron", init_method="env://")`, '
                'a DistributedSampler and `DistributedDataParallel(model)` (Neuron, "How to use '
                f'torch.distributed on Neuron"), launched with `{launch_line("neuron", self._script())}`',
                False,
            )
            return
        if not self.enabled(OptimizerStepReduce):
            self.report(
                anchor,
                ScaleOutUncertain,
                f"not scaled out: {OptimizerStepReduce.code} ({OptimizerStepReduce.name}), which "
                "all-reduces the gradients in the optimizer step, is not selected",
                False,
            )
            return
        try:
            self.plan = self._plan(node, loops)
        except Uncertain as why:
            self.report(why.node, ScaleOutUncertain, f"not scaled out: {why.why}", False)
            return
        plan = self.plan
        batch = "1" if plan.batch is None else _code(plan.batch)
        batch = "the batch size" if plan.batch is SOME else batch
        message = (
            f"data parallel over every NeuronCore: `{plan.sampler} = DistributedSampler("
            f"{_code(plan.dataset)}, ...)` shards `{plan.loader_name}`"
            + (", `set_epoch` per epoch" if plan.epoch_loops else "")
            + (
                f"; no seed, so `xm.broadcast_master_param({plan.broadcast[1]})` gives every "
                "replica the master's initial weights"
                if plan.broadcast
                else ""
            )
            + f"; the global batch is {batch} × xr.world_size() ({cores} × {batch} on "
            f"{instance}); launch with `{launch_line(self.target.backend, self._script())}`"
        )
        if not self.report(plan.loader, ScaleOut, message, True):
            self.plan = None
            return
        self._plan_rates(node, batch, cores)
        self._plan_prints(node)
        self._plan_downloads(node)

    def _note_accelerate_launch(self, module: cst.Module) -> None:
        """An accelerate training script that starts no process group: accelerate starts none
        for the xla backend (`src/accelerate/state.py`, `PartialState.__init__`), so, run as one
        process, it trains on one NeuronCore; torchrun and the xla group make it data parallel,
        as Neuron's accelerate sample does ([neuron-zero1-gpt2])."""
        profile = self.run.profile
        if not (
            self.target.is_xla
            and profile.is_entry_script
            and profile.trains
            and ACCELERATE in profile.launchers
            and TORCHRUN not in profile.launchers  # torchrun's variables or a process group
        ):
            return
        accelerators = self._calls(module, _ACCELERATORS)
        if not accelerators:
            return
        instance, cores, _ = LAUNCH[self.target.backend]
        self.report(
            accelerators[0],
            OneNeuronCore,
            "accelerate starts no process group for the xla backend: run as one process, this "
            f"script trains on one NeuronCore (of {cores} on a {instance}); to train on every "
            "NeuronCore, start the xla process group first in the script (`import "
            'torch_xla.distributed.xla_backend`; `torch.distributed.init_process_group("xla")` '
            'when `os.environ.get("WORLD_SIZE")` is set) and launch it with '
            f"`{launch_line(self.target.backend, self._script())}`",
            False,
        )

    def _script(self) -> str:
        return (self.context.filename or "train.py").rsplit("/", 1)[-1]

    def _plan_rates(self, module: cst.Module, batch: str, cores: int) -> None:
        for call in self._optimizers(module):
            rate = next((a for a in call.args if a.keyword and a.keyword.value == "lr"), None)
            if rate is None:
                self.report(
                    call,
                    LearningRateScale,
                    f"the global batch grew xr.world_size() times ({cores} on a {LAUNCH['xla'][0]}) "
                    "and this optimizer keeps its default learning rate: pass `lr=` scaled as "
                    "the model needs",
                    False,
                )
            elif self.settings.scale_lr:
                if self.report(
                    rate,
                    LearningRateScale,
                    f"`lr={_code(rate.value)}` → `lr={_code(rate.value)} * xr.world_size()` "
                    f"(the global batch is {batch} × xr.world_size())",
                    True,
                ):
                    self.rates.add(rate)
            else:
                self.report(
                    rate,
                    LearningRateScale,
                    f"the global batch grew xr.world_size() times ({batch} × {cores} on "
                    f"{LAUNCH['xla'][0]}) and `lr={_code(rate.value)}` is unchanged; "
                    "`--scale-lr` multiplies it by xr.world_size() (as Neuron's "
                    "train_torchrun.py does)",
                    False,
                )

    def _plan_prints(self, module: cst.Module) -> None:
        for call in m.findall(module, m.Call(func=m.Name("print"))):
            assert isinstance(call, cst.Call)
            if "builtins.print" not in self.module_names(call.func):
                continue
            extra = [
                a.keyword.value
                for a in call.args
                if a.keyword is not None and a.keyword.value not in _PRINT_KEYWORDS
            ]
            if extra or any(a.star for a in call.args):
                self.report(
                    call,
                    RankZeroPrint,
                    f"`print(..., {extra[0] if extra else '*'}=...)` runs on every process: guard "
                    "it with `if xm.is_master_ordinal():`",
                    False,
                )
            elif self.report(call, RankZeroPrint, "`print` → `xm.master_print`", True):
                self.prints.add(call)

    def _plan_downloads(self, module: cst.Module) -> None:
        parents = self.parents()
        runs: dict[cst.CSTNode, list[cst.SimpleStatementLine]] = {}  # by the block they are in
        for call in find(module, cst.Call):
            downloads = any(
                a.keyword and a.keyword.value == "download" and m.matches(a.value, m.Name("True"))
                for a in call.args
            )
            if not downloads or not any(
                n.startswith(_DOWNLOADING) for n in self.module_names(call.func)
            ):
                continue
            line = _statement_of(call, parents)
            block = parents.get(line) if line is not None else None
            owner = parents.get(block) if isinstance(block, cst.IndentedBlock) else block
            if line is None or not isinstance(owner, cst.Module | cst.FunctionDef):
                self.report(
                    call,
                    DownloadRendezvous,
                    "every process downloads this dataset into the same folder at once: build "
                    "it in a statement of its own, at the top level of the module or of a "
                    "function, between `if not xm.is_master_ordinal(): "
                    'xm.rendezvous("dataset_download")` and `if xm.is_master_ordinal(): '
                    'xm.rendezvous("dataset_download")`',
                    False,
                )
                continue
            if self.report(
                call,
                DownloadRendezvous,
                "`download=True` in every process: the master downloads first, the others wait "
                '(`xm.rendezvous("dataset_download")` around it)',
                True,
            ):
                runs.setdefault(block, []).append(line)
        for block, lines in runs.items():
            body = list(block.body)  # type: ignore[attr-defined]
            positions = sorted(body.index(line) for line in set(lines))
            start = previous = positions[0]
            for position in [*positions[1:], None]:
                if position is not None and position == previous + 1:
                    previous = position
                    continue
                self.wait_before.add(body[start])
                self.wait_after.add(body[previous])
                if position is not None:
                    start = previous = position

    def _download_wait(self, before: bool) -> cst.BaseStatement:
        master = _code(self.emit(_IS_MASTER))
        rendezvous = _code(self.emit(_RENDEZVOUS))
        test = f"not {master}" if before else master
        return cst.parse_statement(f'if {test}: {rendezvous}("dataset_download")\n')

    # -- rewriting ---------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        plan = self.plan
        if plan is None:
            return updated_node
        if original_node in self.prints:
            return updated_node.with_changes(func=self.emit(self.target.api("master_print")))
        if original_node is plan.loader:
            return updated_node.with_changes(args=self._loader_args(updated_node.args))
        return updated_node

    def _loader_args(self, args: tuple[cst.Arg, ...] | list[cst.Arg]) -> list[cst.Arg]:
        """The loader's arguments with `sampler=` in place of `shuffle` (or last)."""
        sampler = cst.Arg(
            cst.Name(self.plan.sampler),  # type: ignore[union-attr]
            keyword=cst.Name("sampler"),
            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
        )
        args = list(args)
        if self.plan.bound is not None:  # type: ignore[union-attr]
            # The dataset written in the call is bound to a name above: the loader reads it.
            args[0] = args[0].with_changes(value=self.plan.dataset)  # type: ignore[union-attr]
        for index, arg in enumerate(args):
            if (arg.keyword and arg.keyword.value == "shuffle") or (
                arg.keyword is None and not arg.star and index == 2
            ):
                args[index] = sampler.with_changes(comma=arg.comma)
                return args
        last = args[-1]
        if last.comma is cst.MaybeSentinel.DEFAULT:
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            return [*args[:-1], last.with_changes(comma=comma), sampler]
        # A trailing comma: the new argument takes the last one's place on its own line.
        between = args[-2].comma if len(args) > 1 else last.comma
        return [
            *args[:-1],
            last.with_changes(comma=between),
            sampler.with_changes(comma=last.comma),
        ]

    def leave_Arg(self, original_node: cst.Arg, updated_node: cst.Arg) -> cst.Arg:
        if original_node not in self.rates:
            return updated_node
        value = updated_node.value
        # `a + b` binds looser than `*`; `a * b`, `a / b` and the atoms do not.
        tight = isinstance(value, cst.BinaryOperation) and isinstance(value.operator, _TIGHT)
        if not tight and not isinstance(
            value, cst.Name | cst.Attribute | cst.Integer | cst.Float | cst.Call | cst.Subscript
        ):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        world = self.emit(self.target.api("world_size"))
        return updated_node.with_changes(value=cst.BinaryOperation(value, cst.Multiply(), world))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel:
        plan = self.plan
        if plan is None:
            return updated_node
        if original_node in self.wait_before or original_node in self.wait_after:
            lines: list[cst.BaseStatement] = [updated_node]
            if original_node in self.wait_before:
                lines = [
                    self._download_wait(before=True).with_changes(
                        leading_lines=updated_node.leading_lines
                    ),
                    updated_node.with_changes(leading_lines=[]),
                ]
            if original_node in self.wait_after:
                lines.append(self._download_wait(before=False))
            return cst.FlattenSentinel(lines)
        if original_node is plan.statement:
            shuffle = _code(plan.shuffle) if plan.shuffle is not None else "False"
            bound: list[cst.BaseStatement] = []
            if plan.bound is not None:
                bound.append(cst.parse_statement(f"{_code(plan.dataset)} = {_code(plan.bound)}\n"))
            sampler = cst.parse_statement(
                f"{plan.sampler} = {self.add_import('torch.utils.data', obj='DistributedSampler')}(\n"
                f"    {_code(plan.dataset)},\n"
                f"    num_replicas={_code(self.emit(self.target.api('world_size')))},\n"
                f"    rank={_code(self.emit(self.target.api('global_ordinal')))},\n"
                f"    shuffle={shuffle},\n"
                ")\n"
            )
            if bound:
                lines = list(updated_node.leading_lines)
                return cst.FlattenSentinel(
                    [
                        bound[0].with_changes(leading_lines=lines),
                        sampler,
                        updated_node.with_changes(leading_lines=[]),
                    ]
                )
            return _before(sampler, updated_node)
        if original_node is plan.entry:
            return cst.FlattenSentinel([updated_node, self._init(comment=True)])
        if plan.broadcast is not None and original_node is plan.broadcast[0]:
            broadcast = cst.parse_statement(
                f"{_code(self.emit(_BROADCAST))}({plan.broadcast[1]})"
                "  # no seed: every replica starts from the master's weights\n"
            )
            return _before(broadcast, updated_node)
        return updated_node

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        plan = self.plan
        if plan is None or original_node not in plan.epoch_loops:
            return updated_node
        receiver = plan.epoch_loops[original_node]
        epoch = _code(original_node.target)
        line = cst.parse_statement(f"{receiver}.set_epoch({epoch})\n")
        body = updated_node.body
        if not isinstance(body, cst.IndentedBlock):
            return updated_node
        return updated_node.with_changes(body=body.with_changes(body=[line, *body.body]))

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> cst.If:
        plan = self.plan
        if plan is None or original_node is not plan.entry:
            return updated_node
        body = updated_node.body
        assert isinstance(body, cst.IndentedBlock)
        return updated_node.with_changes(
            leading_lines=[*updated_node.leading_lines, self._launch_comment()],
            body=body.with_changes(body=[self._init(comment=False), *body.body]),
        )

    def _launch_comment(self) -> cst.EmptyLine:
        line = launch_line(self.target.backend, self._script())
        return cst.EmptyLine(comment=cst.Comment(f"# Launch one process per NeuronCore: {line}"))

    def _init(self, comment: bool) -> cst.BaseStatement:
        self.add_import(self.target.api("xla_backend").module)
        environ = _code(self.emit(_ENVIRON))
        init = _code(self.emit(_INIT))
        statement = cst.parse_statement(
            f'if "WORLD_SIZE" in {environ}:  # started by torchrun; one process needs no group\n'
            f'    {init}("xla", init_method="xla://")\n'
        )
        if comment:
            lines = [cst.EmptyLine(), self._launch_comment()]
            statement = statement.with_changes(leading_lines=lines)
        return statement


def _statement_of(
    call: cst.Call, parents: dict[cst.CSTNode, cst.CSTNode]
) -> cst.SimpleStatementLine | None:
    """The statement line whose one statement is ``call`` or assigns it (`x = call`)."""
    small = parents.get(call)
    assigned = isinstance(small, cst.Assign) and small.value is call and len(small.targets) == 1
    if not assigned and not (isinstance(small, cst.Expr) and small.value is call):
        return None
    line = parents.get(small)
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        return line
    return None


def _before(new: cst.BaseStatement, statement: cst.SimpleStatementLine) -> cst.FlattenSentinel:
    """``new`` inserted before ``statement``, taking over the comments and blank lines above it."""
    lines = list(statement.leading_lines)
    return cst.FlattenSentinel(
        [new.with_changes(leading_lines=lines), statement.with_changes(leading_lines=[])]
    )
