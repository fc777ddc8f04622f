"""What `--scale-out` needs to know about a training script, read from the tree the scale-out
pass runs on: the training `DataLoader` and where it is built, the options it takes, the epoch
loops that must call `set_epoch`, the entry point, and, for a script that does not seed, where the
master's weights are broadcast. Anything not certain raises ``Uncertain`` with the reason
([xla-loader, neuron-guide, xla-model])."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.device_loader import loader_of

from trncodemod.analysis.nodes import find
from trncodemod.passes import Pass

_DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_DEVICE_LOADERS = frozenset(
    {
        "torch_xla.distributed.parallel_loader.MpDeviceLoader",
        "torch_xla.distributed.parallel_loader.ParallelLoader",
    }
)
SEEDS = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
# DataLoader(dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, ...).
_POSITIONS = ("dataset", "batch_size", "shuffle")
_OWN_ORDER = frozenset({"sampler", "batch_sampler"})
# An option whose value depends on the run (set, then maybe updated).
SOME = cst.Ellipsis()


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class Uncertain(Exception):
    """The script's shape is not certain: why, and where."""

    def __init__(self, node: cst.CSTNode, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


@dataclass
class Plan:
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
    # A dataset written in the loader's call (`ds["train"]`, `TensorDataset(x, y)`): bound to
    # ``dataset`` (a fresh name) before the loader, so the sampler and the loader share one object.
    bound: cst.BaseExpression | None = None


class ScaleOutShape(Pass):
    """The pass's questions about the script's shape (``ScaleOutPass`` asks them)."""

    def _calls(self, node: cst.CSTNode, names: tuple[str, ...] | frozenset[str]) -> list[cst.Call]:
        # The shared node list (``find``), not LibCST's ``m.findall``, which walks the module
        # with a visitor that copies every node: 0.25 s of 11.9 on four training modules.
        return [c for c in find(node, cst.Call) if self.is_any(c.func, names)]

    def _plan(self, module: cst.Module, loops: list) -> Plan:  # type: ignore[type-arg]
        #  Every replica must start from the same weights ([xla-model, neuron-guide], "Ensure common
        # initial weights"): a seeded script builds them alike, else the master's are broadcast.
        broadcast = None if self._seeded_alike(module) else self._broadcast_point(module, loops)
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
        bound = None
        if not isinstance(dataset, cst.Name):
            bound = self._bindable(call, dataset)
            dataset = cst.Name(self.fresh_name(_stem(name.value, "dataset")))
        plan = Plan(
            loader=call,
            loader_name=name.value,
            statement=statement,
            dataset=dataset,
            sampler=self.fresh_name(_stem(name.value, "sampler")),
            shuffle=shuffle,
            batch=batch,
            bound=bound,
        )
        for loop, loader, path in uses:
            self._plan_epoch(plan, [(loop, loader), *path])
        plan.entry = self._entry(module)
        plan.broadcast = broadcast
        return plan

    def _seeded_alike(self, module: cst.Module) -> bool:
        """Whether every process seeds `torch.manual_seed` with the same value: a number, a
        name bound only to numbers, or an option (`args.seed`) nothing in the module assigns
        (dcgan draws `opt.manualSeed = random.randint(...)` when none is given: a different
        seed per process)."""
        for call in self._calls(module, SEEDS):
            seed = call.args[0].value if len(call.args) == 1 else None
            if isinstance(seed, cst.Integer):
                return True
            if isinstance(seed, cst.Name):
                values = self.bound_values(seed)
                if values and all(isinstance(v, cst.Integer) for v in values):
                    return True
            if m.matches(seed, m.Attribute(value=m.Name())):
                assigned = m.Attribute(value=m.Name(seed.value.value), attr=m.Name(seed.attr.value))  # type: ignore[union-attr]
                targets = m.AssignTarget(target=assigned) | m.AugAssign(target=assigned)
                if not m.findall(module, targets):
                    return True
        return False

    def _optimizers(self, module: cst.Module) -> list[cst.Call]:
        """The `torch.optim` optimizers the module builds (not its schedulers)."""
        found = []
        for call in find(module, cst.Call):
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
            "the script does not seed `torch.manual_seed` with one value every process shares, "
            "so each process would build different initial weights"
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
        # Moved by a call on its name (`model.to(device)`, `model = model.to(device)`), or built
        # and moved in one chain (`model = Net.from_pretrained(...).to(device)`).
        moved = m.Call(func=m.Attribute(value=m.Name(model), attr=m.Name("to"))) | m.Assign(
            targets=[m.AssignTarget(m.Name(model))],
            value=m.Call(func=m.Attribute(value=m.Call(), attr=m.Name("to"))),
        )
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
        if dataset is None:
            raise Uncertain(call, "the loader's dataset is not among its arguments")
        shuffle = given.get("shuffle")
        if m.matches(shuffle, m.Name("False") | m.Name("None")):
            shuffle = None
        return dataset, given.get("batch_size"), shuffle

    @staticmethod
    def _bindable(call: cst.Call, dataset: cst.BaseExpression) -> cst.BaseExpression:
        """A dataset written in the loader's call (`ds["train"]`, `TensorDataset(x, y)`), which
        the sampler must be given too: bound to a name in the statement before the loader's, the
        same expression evaluated once, where the call evaluates it first (its first argument)."""
        first = call.args[0] if call.args else None
        if first is None or first.value is not dataset or first.star:
            raise Uncertain(
                call,
                f"the loader's dataset `{_code(dataset)}` is not a name and not its first "
                "argument: bound before the loader, it would be evaluated before the arguments "
                "written ahead of it (bind it to a name, and pass the name to a DistributedSampler "
                "too)",
            )
        if m.findall(dataset, m.Yield() | m.Await()):
            raise Uncertain(call, f"the loader's dataset `{_code(dataset)}` is not a name")
        return dataset

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
                options[key] = SOME if key in options else value
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

    def _plan_epoch(self, plan: Plan, chain: list[tuple[cst.CSTNode, cst.Name]]) -> None:
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

    def _add_epoch(self, plan: Plan, epoch: cst.For | cst.While, elsewhere: str) -> None:
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


def _stem(loader: str, role: str) -> str:
    """A name for the loader's ``role`` (`train_loader` → `train_sampler`, `train_dl` →
    `train_sampler`, `loader` → `sampler`)."""
    stem = loader
    for suffix in ("dataloader", "loader", "_dl"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    stem = stem.rstrip("_")
    return f"{stem}_{role}" if stem else role


def _argument(call: cst.Call, index: int, keyword: str) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in positional[: index + 1]):
        return None
    return positional[index].value if index < len(positional) else None
