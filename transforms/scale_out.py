"""Scale out: a single-device training script becomes data parallel over every NeuronCore, one
process each, launched by torchrun (reference R3, R4, R11; Neuron's mnist_mlp `train.py` →
`train_torchrun.py`, §7 #2). Rules and their documentation: ``scale_out_rules.py``."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.data_parallel import OptimizerStepReduce
from trncodemod.transforms.device_loader import loader_of
from trncodemod.transforms.scale_out_rules import (
    LearningRateScale,
    OneNeuronCore,
    RankZeroPrint,
    ScaleOut,
    ScaleOutUncertain,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import find_step_loops
from trncodemod.analysis.training import PYTHON
from trncodemod.passes import Pass
from trncodemod.targets import Api, Target

# NeuronCores per instance, one process each (reference R4; Neuron programming guide).
LAUNCH = {
    "xla": ("trn1.32xlarge", 32, "2 on trn1.2xlarge, 64 on trn2.48xlarge"),
    "neuron": ("trn2.48xlarge", 64, "one process per NeuronCore"),
}
_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_SAMPLERS = (
    "torch.utils.data.DistributedSampler",
    "torch.utils.data.distributed.DistributedSampler",
)
_DEVICE_LOADERS = frozenset(
    {
        "torch_xla.distributed.parallel_loader.MpDeviceLoader",
        "torch_xla.distributed.parallel_loader.ParallelLoader",
    }
)
_SEEDS = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
_BROADCAST = Api("xm.broadcast_master_param", "torch_xla.core.xla_model", "xm")
_INIT = Api("torch.distributed.init_process_group", "torch.distributed", "")
_ENVIRON = Api("os.environ", "os", "")
# DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, ...).
_POSITIONS = ("dataset", "batch_size", "shuffle")
_OWN_ORDER = frozenset({"sampler", "batch_sampler"})
_PRINT_KEYWORDS = frozenset({"flush"})
# An option whose value depends on the run (set, then maybe updated).
_SOME = cst.Ellipsis()
_TIGHT = (cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def launch_line(backend: str, script: str) -> str:
    """The torchrun line that runs ``script`` once per NeuronCore of the target's largest
    instance, with the other sizes."""
    instance, cores, others = LAUNCH[backend]
    return f"torchrun --nproc_per_node={cores} {script} ({instance}; {others})"


class Uncertain(Exception):
    """The script's shape is not certain: why, and where."""

    def __init__(self, node: cst.CSTNode, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


@dataclass
class _Plan:
    loader: cst.Call  # the training DataLoader(...)
    loader_name: str
    statement: cst.SimpleStatementLine  # `loader_name = DataLoader(...)`
    dataset: cst.BaseExpression
    sampler: str
    shuffle: cst.BaseExpression | None
    batch: cst.BaseExpression | None
    # Where `set_epoch` goes: first in this loop's body, or after `after` (a loader built per
    # epoch); through this receiver.
    epoch_loops: dict[cst.For, str] = field(default_factory=dict)
    entry: cst.CSTNode | None = None  # the `__main__` guard, or the last top-level import
    # Unseeded: `xm.broadcast_master_param(model)` before this statement.
    broadcast: tuple[cst.SimpleStatementLine, str] | None = None


class ScaleOutPass(Pass):
    name = "scale-out"
    rules = (ScaleOut, OneNeuronCore, ScaleOutUncertain, LearningRateScale, RankZeroPrint)
    needles = ("backward", "DataLoader", "print", "lr")

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Both findings are about a training entry script: one that calls `.backward()` (the
        # profile's `trains`) through a loop over a loader.
        return "backward" in facts.identifiers and bool(facts.loops)

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.plan: _Plan | None = None
        self.prints: set[cst.Call] = set()
        self.rates: set[cst.Arg] = set()

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
            return  # a library module, or distributed already: never scaled out again
        loops = [i for i in find_step_loops(node).values() if i.kind == "train"]
        if not loops:
            return
        anchor = loops[0].node
        instance, cores, _ = LAUNCH[self.target.backend]
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
        batch = "the batch size" if plan.batch is _SOME else batch
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

    def _calls(self, node: cst.CSTNode, names: tuple[str, ...] | frozenset[str]) -> list[cst.Call]:
        return [
            c
            for c in m.findall(node, m.Call())
            if isinstance(c, cst.Call) and self.is_any(c.func, names)
        ]

    def _script(self) -> str:
        return (self.context.filename or "train.py").rsplit("/", 1)[-1]

    def _plan(self, module: cst.Module, loops: list) -> _Plan:  # type: ignore[type-arg]
        # Every replica must start from the same weights (reference R4, "Ensure common initial
        # weights"): a seeded script builds them alike, else the master's are broadcast.
        broadcast = None if self._calls(module, _SEEDS) else self._broadcast_point(module, loops)
        constructions: dict[cst.Call, cst.Name] = {}
        uses: list[tuple[cst.For, cst.Name, list[tuple[cst.Call, cst.Name]]]] = []
        for info in loops:
            loop = info.node
            if not isinstance(loop, cst.For):
                raise Uncertain(loop, "the training loop is a `while` loop, not one over a loader")
            loader = loader_of(loop.iter)
            if isinstance(loader, cst.Call) and self.is_any(loader.func, _DEVICE_LOADERS):
                loader = loader.args[0].value if loader.args else loader
            if not isinstance(loader, cst.Name):
                raise Uncertain(
                    loop,
                    f"the training loop iterates `{_code(loader)}`, not a name bound to a "
                    "`DataLoader(...)`",
                )
            call, name, path = self._construction(loader, loop)
            constructions[call] = name
            uses.append((loop, loader, path))
        if len(constructions) != 1:
            raise Uncertain(loops[0].node, "the training loops iterate different loaders")
        ((call, name),) = constructions.items()
        statement = self._statement_of(call, name)
        dataset, batch, shuffle = self._arguments(call)
        plan = _Plan(
            loader=call,
            loader_name=name.value,
            statement=statement,
            dataset=dataset,
            sampler=self.fresh_name(_sampler_name(name.value)),
            shuffle=shuffle,
            batch=batch,
        )
        for loop, loader, path in uses:
            self._plan_epoch(plan, [(loop, loader), *path])
        plan.entry = self._entry(module)
        plan.broadcast = broadcast
        return plan

    def _optimizers(self, module: cst.Module) -> list[cst.Call]:
        """The `torch.optim` optimizers the module builds (not its schedulers)."""
        found = []
        for call in m.findall(module, m.Call()):
            assert isinstance(call, cst.Call)
            names = self.module_names(call.func)
            if any(n.startswith("torch.optim.") and n.count(".") == 2 for n in names) and not any(
                n.split(".")[-1][:1].islower() for n in names
            ):
                found.append(call)
        return found

    def _broadcast_point(
        self, module: cst.Module, loops: list
    ) -> tuple[cst.SimpleStatementLine, str]:  # type: ignore[type-arg]
        """Where `xm.broadcast_master_param(model)` goes in an unseeded script: right before
        the one optimizer is built from `model.parameters()`, after `model` moved to the
        device in the same block."""
        unseeded = (
            "the script never calls `torch.manual_seed`, so each process would build different "
            "initial weights"
        )
        optimizers = self._optimizers(module)
        if len(optimizers) != 1:
            raise Uncertain(loops[0].node, f"{unseeded}; seed before the model is built")
        optimizer = optimizers[0]
        first = optimizer.args[0].value if optimizer.args else None
        if not m.matches(
            first, m.Call(func=m.Attribute(value=m.Name(), attr=m.Name("parameters")), args=[])
        ):
            raise Uncertain(optimizer, f"{unseeded}; seed before the model is built")
        model = first.func.value.value  # type: ignore[union-attr]
        line: cst.CSTNode | None = optimizer
        while line is not None and not isinstance(line, cst.SimpleStatementLine):
            line = self.get_metadata(ParentNodeProvider, line, None)
        block = self.get_metadata(ParentNodeProvider, line, None) if line else None
        siblings = list(getattr(block, "body", ()))
        moved = m.Call(func=m.Attribute(value=m.Name(model), attr=m.Name("to")))
        if line not in siblings or not any(
            m.findall(s, moved) for s in siblings[: siblings.index(line)]
        ):
            raise Uncertain(
                optimizer,
                f"{unseeded}, and `{model}` is not moved to the device before this optimizer "
                f"is built in the same block; seed before the model is built, or call "
                f"`xm.broadcast_master_param({model})` once it is on the device",
            )
        return line, model  # type: ignore[return-value]

    def _construction(
        self, name: cst.Name, near: cst.CSTNode, depth: int = 0
    ) -> tuple[cst.Call, cst.Name, list[tuple[cst.Call, cst.Name]]]:
        """The one `DataLoader(...)` ``name`` holds, the name it was bound to, and the calls
        that passed it on to where ``name`` is read (a parameter, through the functions of the
        module that call the function holding it), each with the name it passed, innermost
        first."""
        values = self.bound_values(name)
        if values is not None:
            if len(values) == 1 and isinstance(values[0], cst.Call):
                if self.is_any(values[0].func, _DATA_LOADERS):
                    return values[0], name, []
            raise Uncertain(
                near,
                f"`{name.value}` is not bound once to `DataLoader(...)` (a helper's or another "
                "object's loader: shard it with a DistributedSampler by hand)",
            )
        function, slot = self._parameter(name)
        if function is None or depth > 2:
            raise Uncertain(
                near, f"`{name.value}` is not a name bound to a `DataLoader(...)` the tool can read"
            )
        calls = [
            c
            for c in m.findall(self._wrapper.module, m.Call(func=m.Name(function.name.value)))
            if isinstance(c, cst.Call)
        ]
        found: dict[cst.Call, tuple[cst.Name, list[tuple[cst.Call, cst.Name]]]] = {}
        for call in calls:
            value = _argument(call, *slot)
            if not isinstance(value, cst.Name):
                raise Uncertain(call, f"the loader passed to `{function.name.value}` is not a name")
            made, bound, path = self._construction(value, call, depth + 1)
            found[made] = (bound, [(call, value), *path])
        if len(found) != 1:
            raise Uncertain(
                near,
                f"`{function.name.value}` receives {len(found) or 'no'} different loaders "
                f"as `{name.value}`",
            )
        ((made, (bound, path)),) = found.items()
        return made, bound, path

    def _parameter(self, name: cst.Name) -> tuple[cst.FunctionDef | None, tuple[int, str]]:
        """The module-level function whose parameter ``name`` is, and its slot."""
        node: cst.CSTNode | None = name
        while node is not None and not isinstance(node, cst.FunctionDef):
            node = self.get_metadata(ParentNodeProvider, node, None)
        if node is None or not isinstance(self.get_metadata(ParentNodeProvider, node), cst.Module):
            return None, (-1, "")
        params = node.params
        if params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg:
            return None, (-1, "")
        for index, param in enumerate((*params.posonly_params, *params.params)):
            if param.name.value == name.value:
                return node, (index, name.value)
        return None, (-1, "")

    def _statement_of(self, call: cst.Call, name: cst.Name) -> cst.SimpleStatementLine:
        assign = self.get_metadata(ParentNodeProvider, call, None)
        line = self.get_metadata(ParentNodeProvider, assign, None) if assign else None
        if not (
            isinstance(assign, cst.Assign)
            and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)
            and isinstance(line, cst.SimpleStatementLine)
            and len(line.body) == 1
        ):
            raise Uncertain(call, f"`{name.value} = DataLoader(...)` is not a statement of its own")
        return line

    def _arguments(
        self, call: cst.Call
    ) -> tuple[cst.BaseExpression, cst.BaseExpression | None, cst.BaseExpression | None]:
        given: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(call.args):
            if arg.star == "**" and isinstance(arg.value, cst.Name):
                for key, value in self._options(call, arg.value).items():
                    given.setdefault(key, value)
                continue
            if arg.star:
                raise Uncertain(
                    call, f"the loader takes `{arg.star}{_code(arg.value)}`, which may hold more"
                )
            if arg.keyword is None:
                if index >= len(_POSITIONS):
                    raise Uncertain(call, "the loader takes a sampler or more by position")
                given[_POSITIONS[index]] = arg.value
            else:
                given[arg.keyword.value] = arg.value
        own = _OWN_ORDER & set(given)
        if own:
            raise Uncertain(call, f"the loader has its own `{sorted(own)[0]}`")
        dataset = given.get("dataset")
        if not isinstance(dataset, cst.Name):
            raise Uncertain(
                call,
                "the loader's dataset is not a name (the sampler must be given the same dataset)",
            )
        shuffle = given.get("shuffle")
        if m.matches(shuffle, m.Name("False") | m.Name("None")):
            shuffle = None
        return dataset, given.get("batch_size"), shuffle

    def _options(self, call: cst.Call, name: cst.Name) -> dict[str, cst.BaseExpression]:
        """The options a `**name` passes to the loader, where every key is certain: ``name`` is
        bound to dict literals, and read elsewhere only as ``name.update(<dict literal, or a
        name bound to one>)``. A `shuffle` among them is taken out of the dict by the sampler
        (``name.pop("shuffle", False)``), so its value may differ between runs."""
        options = self._literal_options(call, name)
        function = self._function(call)
        for use in m.findall(function or self._wrapper.module, m.Name(name.value)):
            parent = self.get_metadata(ParentNodeProvider, use, None)
            if use is name or isinstance(parent, cst.AssignTarget):
                continue
            method = self.get_metadata(ParentNodeProvider, parent, None) if parent else None
            if not (
                m.matches(parent, m.Attribute(value=m.Name(), attr=m.Name("update")))
                and isinstance(method, cst.Call)
                and len(method.args) == 1
                and not method.args[0].star
                and not method.args[0].keyword
            ):
                raise Uncertain(call, f"`{name.value}` is read elsewhere, not only updated")
            update = method.args[0].value
            found = (
                self._literal_options(call, update)
                if isinstance(update, cst.Name)
                else self._dict_options(call, update)
            )
            for key, value in found.items():
                options[key] = _SOME if key in options else value
        if "shuffle" in options:
            options["shuffle"] = cst.parse_expression(f'{name.value}.pop("shuffle", False)')
        return options

    def _literal_options(self, call: cst.Call, name: cst.Name) -> dict[str, cst.BaseExpression]:
        values = self.bound_values(name)
        if values is None or len(values) != 1:
            raise Uncertain(call, f"`**{name.value}` is not one dict literal the tool can read")
        return self._dict_options(call, values[0])

    @staticmethod
    def _dict_options(call: cst.Call, node: cst.BaseExpression) -> dict[str, cst.BaseExpression]:
        if not isinstance(node, cst.Dict):
            raise Uncertain(call, f"`{_code(node)}` is not a dict literal the tool can read")
        options: dict[str, cst.BaseExpression] = {}
        for element in node.elements:
            if not (
                isinstance(element, cst.DictElement)
                and isinstance(element.key, cst.SimpleString)
                and isinstance(element.key.evaluated_value, str)
            ):
                raise Uncertain(call, f"`{_code(node)}` has a key the tool cannot read")
            options[element.key.evaluated_value] = element.value
        return options

    def _plan_epoch(self, plan: _Plan, chain: list[tuple[cst.CSTNode, cst.Name]]) -> None:
        """`set_epoch` first in the innermost `for` around the step loop, else around the call
        that passed the loader to the function holding it (and so on outwards), through the
        sampler's name where it is visible and the loader's `.sampler` elsewhere; else in the
        loops around the calls of the function that holds the step loop (a loader read as a
        global, as in `def train(epoch): for ... in trainloader`)."""
        for node, name in chain:
            epoch = self._enclosing_loop(node)
            if epoch is not None:
                self._add_epoch(plan, epoch, f"{name.value}.sampler")
                return
        holder = self._function(chain[-1][0])
        if not isinstance(holder, cst.FunctionDef):
            return  # the step loop runs once, at the top level: the order of epoch 0
        for call in m.findall(self._wrapper.module, m.Call(func=m.Name(holder.name.value))):
            epoch = self._enclosing_loop(call)
            if epoch is None:
                continue  # one pass over the data there
            if self._function(plan.statement) is not self._function(epoch) and not isinstance(
                self._function(plan.statement), cst.Module
            ):
                raise Uncertain(
                    epoch,
                    f"the sampler is not visible in the epoch loop that calls `{_code(call)}`",
                )
            self._add_epoch(plan, epoch, plan.sampler)

    def _add_epoch(self, plan: _Plan, epoch: cst.For | cst.While, elsewhere: str) -> None:
        if not isinstance(epoch, cst.For):
            raise Uncertain(
                epoch, "the epoch loop is a `while` loop: call `set_epoch` in it by hand"
            )
        if not isinstance(epoch.target, cst.Name):
            raise Uncertain(epoch, "the epoch loop's target is not a name for `set_epoch`")
        if self._contains(epoch, plan.statement):
            raise Uncertain(epoch, "the loader is built inside the epoch loop")
        visible = self._function(epoch) is self._function(plan.statement) or isinstance(
            self._function(plan.statement), cst.Module
        )
        plan.epoch_loops[epoch] = plan.sampler if visible else elsewhere

    def _function(self, node: cst.CSTNode) -> cst.CSTNode | None:
        node = self.get_metadata(ParentNodeProvider, node, None)
        while node is not None and not isinstance(node, cst.FunctionDef | cst.Module):
            node = self.get_metadata(ParentNodeProvider, node, None)
        return node

    def _enclosing_loop(self, node: cst.CSTNode) -> cst.For | cst.While | None:
        node = self.get_metadata(ParentNodeProvider, node, None)
        while node is not None and not isinstance(node, cst.FunctionDef | cst.Module):
            if isinstance(node, cst.For | cst.While):
                return node
            node = self.get_metadata(ParentNodeProvider, node, None)
        return None

    @staticmethod
    def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
        return bool(m.findall(outer, m.MatchIfTrue(lambda n: n is inner)))

    def _entry(self, module: cst.Module) -> cst.CSTNode:
        guard = m.If(
            test=m.Comparison(
                left=m.Name("__name__"),
                comparisons=[m.ComparisonTarget(m.Equal(), m.SimpleString())],
            )
        )
        for statement in module.body:
            if m.matches(statement, guard) and isinstance(statement.body, cst.IndentedBlock):  # type: ignore[attr-defined]
                return statement
        imports = [
            s
            for s in module.body
            if m.matches(s, m.SimpleStatementLine(body=[m.Import() | m.ImportFrom()]))
        ]
        if not imports:
            raise Uncertain(module.body[0], "the script has no `__main__` guard and no imports")
        return imports[-1]

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
        if original_node is plan.statement:
            shuffle = _code(plan.shuffle) if plan.shuffle is not None else "False"
            sampler = cst.parse_statement(
                f"{plan.sampler} = {self.add_import('torch.utils.data', obj='DistributedSampler')}(\n"
                f"    {_code(plan.dataset)},\n"
                f"    num_replicas={_code(self.emit(self.target.api('world_size')))},\n"
                f"    rank={_code(self.emit(self.target.api('global_ordinal')))},\n"
                f"    shuffle={shuffle},\n"
                ")\n"
            )
            lines = list(updated_node.leading_lines)
            return cst.FlattenSentinel(
                [
                    sampler.with_changes(leading_lines=lines),
                    updated_node.with_changes(leading_lines=[]),
                ]
            )
        if original_node is plan.entry:
            return cst.FlattenSentinel([updated_node, self._init(comment=True)])
        if plan.broadcast is not None and original_node is plan.broadcast[0]:
            broadcast = cst.parse_statement(
                f"{_code(self.emit(_BROADCAST))}({plan.broadcast[1]})"
                "  # no seed: every replica starts from the master's weights\n"
            )
            lines = list(updated_node.leading_lines)
            return cst.FlattenSentinel(
                [
                    broadcast.with_changes(leading_lines=lines),
                    updated_node.with_changes(leading_lines=[]),
                ]
            )
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


def _sampler_name(loader: str) -> str:
    stem = loader.removesuffix("_loader").removesuffix("loader").rstrip("_")
    return f"{stem}_sampler" if stem else "sampler"


def _argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional[: index + 1]):
        return None
    return positional[index].value if index < len(positional) else None
