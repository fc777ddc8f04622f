"""torch-xla code (Trn1, torch-neuronx <= 2.9) moved to TorchNeuron (``--target neuron``).

TorchNeuron has no torch_xla ([torchneuron-overview]): every torch_xla API is rewritten to its
PyTorch / torchrun equivalent where one exists and the rewrite is certain, its import goes with its
last use, and what is left gets a blocker that names the TorchNeuron API and the page to read. The
API mappings are data (``data/xla_to_neuron.toml``, read by ``xla_to_neuron_table``); this module
interprets them, plus the few rewrites that are about statements and loops rather than one call
(device loaders, step closures, master-only statements).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider
from trncodemod.transforms.data_parallel import nccl_choice
from trncodemod.transforms.torch_xla_apis import names_environment
from trncodemod.transforms.xla_to_neuron_rules import (
    RULES,
    GraphCut,
    NeuronProcessGroup,
    NoNeuronEquivalent,
    OpenXlaCompileBackend,
    StepClosureCall,
    TorchXlaImport,
    TorchXlaLeft,
    UnwrapDeviceLoader,
    XlaBf16EnvVar,
    XlaDevice,
    XlaEnvVar,
)
from trncodemod.transforms.xla_to_neuron_table import CallRow, neuron_table

from trncodemod.analysis import training
from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.loops import STEP_CONTEXTS, dotted, root_name
from trncodemod.analysis.nodes import visit
from trncodemod.passes import Pass, PlainVisitor
from trncodemod.rewriting.calls import keyword
from trncodemod.rewriting.statements import DropsStatements
from trncodemod.targets import Target

# -- facts about the file ----------------------------------------------------------------------
_SPAWNS = frozenset(
    {
        "torch_xla.distributed.xla_multiprocessing.spawn",
        "torch_xla.launch",
        "torch_xla.torch_xla.launch",
        "torch.multiprocessing.spawn",
    }
)
_PROCESS_GROUP = "torch.distributed.init_process_group"
_DEVICE_LOADER = "torch_xla.distributed.parallel_loader.MpDeviceLoader"
_STEP_CLOSURE = "torch_xla.core.xla_model.add_step_closure"
_COMPILE = "torch.compile"
_XLA_BACKENDS = frozenset({"openxla", "openxla_eval"})
# Calls whose first argument is a device (type).
_DEVICE_FIRST = frozenset(
    {"torch.device", "torch.autocast", "torch.amp.autocast", "torch.amp.GradScaler"}
)
_DEVICE_KEYWORDS = frozenset({"device", "device_type"})
_ROOTS = ("torch_xla", "neuronx_distributed")
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.SimpleString, cst.Integer)


class _Calls(PlainVisitor):
    def __init__(self) -> None:
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _restring(node: cst.SimpleString, value: str) -> cst.SimpleString:
    return node.with_changes(value=f"{node.prefix}{node.quote}{value}{node.quote}")


def _argument(call: cst.Call, index: int, name: str) -> cst.Arg | None:
    """The argument for parameter ``name`` (at position ``index``) of ``call``, if passed plainly."""
    for position, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None and position == index:
            return arg
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


@dataclass
class _LoaderPlan:
    loader_index: int  # where the wrapped DataLoader is among the call's arguments
    device: str  # code of the device expression for the batch moves
    loops: list[tuple[cst.For, cst.BaseExpression]]  # each loop and its batch target
    applied: bool = False


class XlaToNeuron(DropsStatements, Pass):
    name = "xla-to-neuron"
    rules = RULES
    needles = ("xla", "XLA", "init_process_group", "neuronx_distributed", "NEURON")

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return not target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        strings = facts.strings
        return (
            # Imports (leave_Module reports or removes them) and every torch_xla /
            # neuronx_distributed name (the table's calls and names, device loaders, step
            # closures and contexts) need an import rooted there.
            any(module.split(".", 1)[0] in _ROOTS for module in facts.qualified)
            # leave_SimpleString: an environment variable of the table, or an "xla" device.
            or not strings.isdisjoint(neuron_table().env)
            or any(s == "xla" or s.startswith("xla:") for s in strings)
            # _process_group: acts on backend "xla" (above) or "nccl".
            or ("nccl" in strings and facts.calls_one_of(_PROCESS_GROUP))
            # _compile_backend: backend="openxla" / "openxla_eval".
            or (not strings.isdisjoint(_XLA_BACKENDS) and facts.calls_one_of(_COMPILE))
        )

    def __init__(self, context, run) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context, run)
        self.table = neuron_table()
        self._drop: set[cst.BaseSmallStatement] = set()
        self._guards: dict[cst.BaseSmallStatement, str] = {}
        # Outermost references to torch_xla names that a rewrite or a finding took care of.
        self._handled: set[cst.CSTNode] = set()
        self._references: list[tuple[cst.BaseExpression, str]] = []
        self._imports: list[cst.Import | cst.ImportFrom] = []
        self._roots: set[str] = set()
        self._in_import = 0
        self._loaders: dict[cst.Call, _LoaderPlan] = {}
        self._moves: dict[cst.For, tuple[cst.BaseExpression, _LoaderPlan]] = {}
        self._multi_process = False
        self._found_inf = False

    # -- what the whole file says --------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        collector = _Calls()
        visit(node, collector)
        for call in collector.calls:
            names = self.qualified_names(call.func)
            if names & _SPAWNS or _PROCESS_GROUP in names:
                self._multi_process = True
            if any(
                arg.keyword is not None and arg.keyword.value == "found_inf" for arg in call.args
            ):
                self._found_inf = True
            if _DEVICE_LOADER in names:
                plan = self._plan_device_loader(call)
                if plan is not None:
                    self._loaders[call] = plan

    @property
    def _single_process(self) -> bool:
        """Certainly one process: an entry script that starts no workers, no process group and
        no framework launcher. A library module may run under any of them."""
        profile = self.run.profile
        return (
            profile.is_entry_script
            and not self._multi_process
            and set(profile.launchers) <= {training.PYTHON}
            and set(profile.parallelism) <= {training.XLA_DATA_PARALLEL}
        )

    @property
    def _gradients_reduced(self) -> bool:
        """Gradients need no torch-xla reduction: one process, or DDP reduces them."""
        parallelism = set(self.run.profile.parallelism)
        return self._single_process or (
            training.DDP in parallelism and parallelism <= training.PLAIN_DATA_PARALLEL
        )

    def _plan_device_loader(self, call: cst.Call) -> _LoaderPlan | None:
        """How to unwrap ``pl.MpDeviceLoader(loader, device)``: every loop over it, each with a
        batch unpacked into names; None when one use is anything else."""
        loader = _argument(call, 0, "loader")
        device = _argument(call, 1, "device")
        if loader is None or device is None or _argument(call, 99, "input_sharding"):
            return None
        value = device.value
        devices = next(row.names for row in self.table.calls if row.rule is XlaDevice)
        if isinstance(value, cst.Name):
            device_code = value.value
        elif isinstance(value, cst.Call) and self.module_names(value.func) & devices:
            device_code = self.target.device.expr
        else:
            return None
        uses = self._loader_uses(call)
        if uses is None:
            return None
        loops = []
        for use in uses:
            loop = self._loop_over(use)
            if loop is None:
                return None
            batch = loop.target
            iterable = loop.iter
            if isinstance(iterable, cst.Call) and (dotted(iterable.func) or "") == "enumerate":
                if not (isinstance(batch, cst.Tuple) and len(batch.elements) == 2):
                    return None
                batch = batch.elements[1].value
            if not (
                isinstance(batch, cst.Tuple | cst.List)
                and batch.elements
                and all(
                    isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                    for e in batch.elements
                )
            ):
                return None
            if not isinstance(loop.body, cst.IndentedBlock):
                return None
            loops.append((loop, batch))
        return _LoaderPlan(call.args.index(loader), device_code, loops)

    def _loader_uses(self, call: cst.Call) -> list[cst.BaseExpression] | None:
        """The reads of the device loader other than `len(...)`: the call itself in
        ``for ... in``, or the reads of the one name it is assigned to. Where that name held the
        DataLoader before (``loader = pl.MpDeviceLoader(loader, device)``), the reads after the
        assignment. None when the value goes anywhere else."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if not isinstance(parent, cst.Assign):
            return [call]
        if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
            return None
        target = parent.targets[0].target
        scope = self.get_metadata(ScopeProvider, target, None)
        if scope is None:
            return None
        assignments = list(scope.assignments[target.value])
        mine = [a for a in assignments if getattr(a, "node", None) is target]
        if len(mine) != 1:
            return None
        start = self.get_metadata(PositionProvider, parent).end
        uses = []
        for access in mine[0].references:
            node = access.node
            if len(assignments) > 1:
                # The name is rebound: only what reads it after this assignment sees the device
                # loader (the reads before, and the loader argument itself, see the DataLoader).
                where = self.get_metadata(PositionProvider, node).start
                if (where.line, where.column) < (start.line, start.column):
                    continue
            if self._is_len_argument(node):
                continue  # a DataLoader has the same len()
            uses.append(node)
        return uses

    def _is_len_argument(self, node: cst.CSTNode) -> bool:
        arg = self.get_metadata(ParentNodeProvider, node, None)
        call = (
            self.get_metadata(ParentNodeProvider, arg, None) if isinstance(arg, cst.Arg) else None
        )
        return (
            isinstance(call, cst.Call)
            and len(call.args) == 1
            and self.is_any(call.func, {"builtins.len"})
        )

    def _loop_over(self, node: cst.CSTNode) -> cst.For | None:
        """The ``for`` loop whose iterable is ``node``, directly or through ``enumerate``/``tqdm``."""
        child = node
        parent = self.get_metadata(ParentNodeProvider, child, None)
        while isinstance(parent, cst.Arg):
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if not (
                isinstance(call, cst.Call)
                and call.args[0] is parent
                and (dotted(call.func) or "").rsplit(".", 1)[-1] in ("enumerate", "tqdm")
            ):
                return None
            child = call
            parent = self.get_metadata(ParentNodeProvider, call, None)
        return parent if isinstance(parent, cst.For) and parent.iter is child else None

    # -- imports -------------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> None:
        self._in_import += 1
        for alias in node.names:
            module = dotted(alias.name) or ""
            if module.split(".", 1)[0] in _ROOTS:
                self._imports.append(node)
                bound = alias.asname.name if alias.asname else None
                self._roots.add(
                    bound.value if isinstance(bound, cst.Name) else module.split(".")[0]
                )

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        self._in_import -= 1
        return updated_node

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._in_import += 1
        module = dotted(node.module) if node.module is not None and not node.relative else None
        if (
            module
            and module.split(".", 1)[0] in _ROOTS
            and not isinstance(node.names, cst.ImportStar)
        ):
            self._imports.append(node)
            for alias in node.names:
                bound = alias.asname.name if alias.asname else alias.name
                if isinstance(bound, cst.Name):
                    self._roots.add(bound.value)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        self._in_import -= 1
        return updated_node

    # -- references to torch_xla names ---------------------------------------------------------
    def _torch_xla_name(self, node: cst.BaseExpression) -> str | None:
        if self._in_import or root_name(node) not in self._roots:
            return None
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute):
            return None  # not the outermost spelling
        return next(
            (n for n in sorted(self.qualified_names(node)) if n.split(".", 1)[0] in _ROOTS), None
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = self._torch_xla_name(node)
        if name is not None:
            self._references.append((node, name))

    def visit_Name(self, node: cst.Name) -> None:
        name = self._torch_xla_name(node)
        if name is not None:
            self._references.append((node, name))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        return self._renamed(original_node, updated_node)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self._renamed(original_node, updated_node)

    def _renamed(
        self, original: cst.BaseExpression, updated: cst.BaseExpression
    ) -> cst.BaseExpression:
        if self._in_import or root_name(original) not in self._roots:
            return updated
        names = self.qualified_names(original)
        row = next((r for r in self.table.names if r.name in names), None)
        if row is None:
            return updated
        parent = self.get_metadata(ParentNodeProvider, original, None)
        if isinstance(parent, cst.Attribute) and parent.value is original:
            return updated
        self._handled.add(original)  # reported, or suppressed by the author
        if self._found_inf and "syncfree" in row.name:
            self.report(
                original,
                TorchXlaLeft,
                f"`{_code(original)}` is stepped with `found_inf=` here, which `{row.to}` does not "
                "take: drop the GradScaler (bf16 needs no loss scaling, [neuron-bf16, xla-amp]) and the "
                f"`found_inf` argument, then use `{row.to}`",
                False,
            )
            return updated
        if not self.report(
            original, row.rule, f"`{_code(original)}` → `{row.to}`: {row.why}", True
        ):
            return updated
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original)
        self.add_import(row.to.split(".", 1)[0])
        return cst.parse_expression(row.to)

    # -- calls ---------------------------------------------------------------------------------
    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        names = self.qualified_names(original_node.func)
        if not names:
            return updated_node
        row = next((r for r in self.table.calls if r.names & names), None)
        if row is not None:
            return self._rewrite_call(row, original_node, updated_node)
        if _DEVICE_LOADER in names:
            return self._unwrap_loader(original_node, updated_node)
        if _STEP_CLOSURE in names:
            return self._closure_call(original_node, updated_node)
        if _PROCESS_GROUP in names:
            return self._process_group(original_node, updated_node)
        if _COMPILE in names:
            return self._compile_backend(original_node, updated_node)
        return updated_node

    def _refuse(self, original: cst.Call, message: str) -> cst.Call:
        self._handled.add(original.func)
        self.report(original, TorchXlaLeft, message, False)
        return original

    def _statement_of(self, call: cst.Call) -> cst.Expr | None:
        """The expression statement that is ``call`` alone on its line, else None."""
        parent = self.get_metadata(ParentNodeProvider, call, None)
        if not (isinstance(parent, cst.Expr) and parent.value is call):
            return None
        line = self.get_metadata(ParentNodeProvider, parent, None)
        return parent if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None

    def _bind(
        self, row: CallRow, call: cst.Call, updated: cst.Call
    ) -> tuple[dict[str, cst.Arg], list[cst.Arg]] | str:
        """The call's arguments by parameter name (and the ``*args`` ones), or why not."""
        bound: dict[str, cst.Arg] = {}
        rest: list[cst.Arg] = []
        order = [name for name, _how in row.params]
        hows = dict(row.params)
        star = next((name for name, how in row.params if how == "*"), None)
        for index, (arg, new) in enumerate(zip(call.args, updated.args, strict=True)):
            if arg.star:
                return f"`{_code(arg)}` unpacks arguments the tool cannot map"
            if arg.keyword is None:
                if star is not None and index >= order.index(star):
                    rest.append(new)
                elif index < len(order):
                    bound[order[index]] = new
                else:
                    return "it passes more arguments than the function takes"
            elif arg.keyword.value in hows:
                bound[arg.keyword.value] = new
            else:
                return f"`{arg.keyword.value}=` is not an argument the tool knows"
        for name in bound:
            if hows[name] == "refuse":
                return f"`{name}=` changes what it does and has no TorchNeuron spelling"
        return bound, rest

    def _rewrite_call(
        self, row: CallRow, original: cst.Call, updated: cst.Call
    ) -> cst.BaseExpression:
        short = _code(original.func)
        binding = self._bind(row, original, updated)
        if isinstance(binding, str):
            return self._refuse(
                original, f"`{short}(...)`: {binding}; rewrite it by hand ({row.why})"
            )
        bound, rest = binding
        if row.when == "reduced-gradients" and not self._gradients_reduced:
            return self._refuse(
                original,
                f"`{short}(...)` reduces gradients across processes and the model is not wrapped "
                "in DDP: wrap it with `torch.nn.parallel.DistributedDataParallel(model)` after "
                '`torch.distributed.init_process_group(backend="neuron")`, then call '
                "`optimizer.step()` (TorchNeuron's DDP reduces the gradients)",
            )
        single = self._single_process
        to = row.to if single or row.distributed is None else row.distributed
        statement = self._statement_of(original)
        guard = "" if single else row.guard
        if (to == "" or guard) and statement is None:
            return self._refuse(
                original,
                f"`{short}(...)` is not a statement of its own here: {row.why}; "
                + ("remove it by hand" if to == "" else f"run it under `if {guard}:` by hand"),
            )
        new: cst.BaseExpression | None = None
        if to.startswith("@"):
            api = self.target.device if to == "@device" else self.target.api(to[1:])
            if not api:
                return self._refuse(
                    original, f"`{short}(...)`: no `{to[1:]}` on {self.target.name}"
                )
            new = self.emit(api)
        elif "(" in to:
            code = to
            for name, arg in bound.items():
                value = arg.value
                text = _code(value)
                code = code.replace(
                    "{" + name + "}", text if isinstance(value, _ATOMS) else f"({text})"
                )
            if "{" in code:
                return self._refuse(original, f"`{short}(...)`: an argument is missing; {row.why}")
            new = cst.parse_expression(code)
        elif to:
            new = updated.with_changes(
                func=cst.parse_expression(to), args=self._mapped_args(row, bound, rest)
            )
        spelled = f"`{short}({'...' if original.args else ''})`"
        message = f"{spelled} → " + (f"`{_code(new)}`" if new is not None else "removed")
        if guard:
            message += f" under `if {guard}:`"
        if new is not None and statement is not None and self._repeats_previous(statement, new):
            # `torch.manual_seed(s)` then the XLA seed (as the xla targets write it): one is enough.
            message = f"{spelled} removed: the statement before it is `{_code(new)}` already"
            new = None
        self._handled.add(original.func)  # reported, or suppressed by the author
        if not self.report(original, row.rule, f"{message}: {row.why}", True):
            return updated
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original.func)
        for module in row.imports:
            self.add_import(module)
        if guard:
            self._guards[statement] = guard  # type: ignore[index]
            for module in row.guard_imports:
                self.add_import(module)
        if new is None:
            self._drop.add(statement)  # type: ignore[arg-type]
            return updated
        return new

    def _repeats_previous(self, statement: cst.Expr, new: cst.BaseExpression) -> bool:
        """Whether the statement before ``statement`` in its block is ``new`` already."""
        line = self.get_metadata(ParentNodeProvider, statement, None)
        block = self.get_metadata(ParentNodeProvider, line, None)
        body = getattr(block, "body", None)
        if not isinstance(body, list | tuple) or line not in body:
            return False
        index = list(body).index(line)
        previous = body[index - 1] if index else None
        return (
            isinstance(previous, cst.SimpleStatementLine)
            and len(previous.body) == 1
            and isinstance(previous.body[0], cst.Expr)
            and previous.body[0].value.deep_equals(new)
        )

    def _mapped_args(
        self, row: CallRow, bound: dict[str, cst.Arg], rest: list[cst.Arg]
    ) -> list[cst.Arg]:
        args: list[cst.Arg] = list(rest)
        for name, how in row.params:
            arg = bound.get(name)
            if arg is None or how in ("drop", "*"):
                continue
            if how == "keep":
                args.append(arg)
            else:
                args.append(keyword(how, arg.value))
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return args

    # -- device loaders, step closures, process groups, compile --------------------------------
    def _unwrap_loader(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        plan = self._loaders.get(original)
        self._handled.add(original.func)
        if plan is None:
            return self._refuse(
                original,
                f"`{_code(original.func)}(...)` is used other than by `for` loops that unpack each "
                "batch into names: iterate the DataLoader itself and move each batch to "
                f"`{self.target.device.expr}` with `.to(...)` at the top of the loop",
            )
        if not self.report(
            original,
            UnwrapDeviceLoader,
            f"`{_code(original.func)}(...)` → the DataLoader it wraps; each batch is moved with "
            f"`.to({plan.device})` at the top of {len(plan.loops)} loop(s)",
            True,
        ):
            return updated
        plan.applied = True
        for loop, batch in plan.loops:
            self._moves[loop] = (batch, plan)
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original.func)
        if plan.device == self.target.device.expr:
            self.add_import(self.target.device.module, self.target.device.alias)
        loader = updated.args[plan.loader_index].value
        parent = self.get_metadata(ParentNodeProvider, original, None)
        if (
            isinstance(parent, cst.Assign)
            and isinstance(loader, cst.Name)
            and loader.deep_equals(parent.targets[0].target)
        ):
            # `loader = pl.MpDeviceLoader(loader, device)` would become `loader = loader`.
            self._drop.add(parent)
        return loader

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> cst.For:
        move = self._moves.get(original_node)
        if move is None or not move[1].applied:
            return updated_node
        batch, plan = move
        names = [element.value.value for element in batch.elements]  # type: ignore[union-attr]
        tail = "," if len(names) == 1 else ""
        statement = cst.parse_statement(
            ", ".join(names)
            + tail
            + " = "
            + ", ".join(f"{name}.to({plan.device})" for name in names)
            + tail
            + "\n"
        )
        body = updated_node.body
        return updated_node.with_changes(body=body.with_changes(body=[statement, *body.body]))

    def _closure_call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        closure = _argument(original, 0, "closure")
        args = _argument(original, 1, "args")
        index = {id(a): i for i, a in enumerate(original.args)}
        known = {"closure", "args", "run_async"}
        if (
            closure is None
            or any(
                a.star or (a.keyword is not None and a.keyword.value not in known)
                for a in original.args
            )
            or len(original.args) > 3
        ):
            return self._refuse(
                original,
                "`add_step_closure(...)`: arguments the tool cannot map; call the function directly",
            )
        function = updated.args[index[id(closure)]].value
        if not isinstance(function, _ATOMS):
            function = function.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        call_args: list[cst.Arg] = []
        if args is not None:
            value = updated.args[index[id(args)]].value
            if isinstance(value, cst.Tuple) and all(
                isinstance(e, cst.Element) for e in value.elements
            ):
                call_args = [cst.Arg(e.value) for e in value.elements]
            else:
                call_args = [cst.Arg(value, star="*")]
        for i, arg in enumerate(call_args[:-1]):
            call_args[i] = arg.with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
        new = cst.Call(func=function, args=call_args)
        self._handled.add(original.func)
        if not self.report(
            original,
            StepClosureCall,
            f"`{_code(original.func)}(...)` → `{_code(new)}`: eager tensors are ready, so the "
            "closure runs where it is added (before the rest of the step)",
            True,
        ):
            return updated
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, original.func)
        return new

    def _process_group(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        backend = _argument(original, 0, "backend")
        value = _string(backend.value) if backend is not None else None
        choice = nccl_choice(backend.value) if backend is not None else None
        if value not in ("xla", "nccl") and choice is None:
            return updated
        assert backend is not None
        args = []
        for index, (arg, new) in enumerate(zip(original.args, updated.args, strict=True)):
            if arg is backend:
                quoted = choice or arg.value  # a choice of NCCL by availability: all of it
                new = new.with_changes(value=_restring(quoted, "neuron"))  # type: ignore[arg-type]
            elif _string(arg.value) == "xla://" and (
                (arg.keyword is not None and arg.keyword.value == "init_method")
                or (arg.keyword is None and arg is original.args[-1] and index == 1)
            ):
                continue  # torchrun's env:// is the default
            args.append(new)
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        said = f'"{value}"' if choice is None else f"`{_code(backend.value)}`"
        if not self.report(
            original if choice is None else backend.value,
            NeuronProcessGroup,
            f'backend {said} → "neuron": TorchNeuron\'s process group under torchrun',
            True,
        ):
            return updated
        return updated.with_changes(args=args)

    def _compile_backend(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        backend = next(
            (a for a in original.args if a.keyword and a.keyword.value == "backend"), None
        )
        value = _string(backend.value) if backend is not None else None
        if value not in _XLA_BACKENDS:
            return updated
        if not self.report(
            original, OpenXlaCompileBackend, f'`backend="{value}"` → `backend="neuron"`', True
        ):
            return updated
        args = [
            new.with_changes(value=_restring(arg.value, "neuron")) if arg is backend else new  # type: ignore[arg-type]
            for arg, new in zip(original.args, updated.args, strict=True)
        ]
        return updated.with_changes(args=args)

    def leave_With(
        self, original_node: cst.With, updated_node: cst.With
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        """`with torch_xla.step():` cuts the graph when its block ends; eagerly, the block alone."""
        if len(original_node.items) != 1 or original_node.asynchronous:
            return updated_node
        item = original_node.items[0]
        if item.asname is not None or not isinstance(item.item, cst.Call):
            return updated_node
        if not self.module_names(item.item.func) & STEP_CONTEXTS:
            return updated_node
        if not isinstance(updated_node.body, cst.IndentedBlock):
            return updated_node
        self._handled.add(item.item.func)
        if not self.report(
            original_node,
            GraphCut,
            f"`with {_code(item.item)}:` → its block alone: TorchNeuron runs eagerly, there is no "
            "graph to cut when the block ends",
            True,
        ):
            return updated_node
        RemoveImportsVisitor.remove_unused_import_by_node(self.context, item.item.func)
        body = list(updated_node.body.body)
        body[0] = body[0].with_changes(
            leading_lines=[*updated_node.leading_lines, *body[0].leading_lines]
        )
        return cst.FlattenSentinel(body)

    # -- strings: the "xla" device and environment variables -----------------------------------
    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.SimpleString:
        value = _string(original_node)
        if value is None:
            return updated_node
        if value in self.table.env:
            if names_environment(self, original_node):
                bf16 = self.table.env[value]
                self.report(
                    original_node,
                    XlaBf16EnvVar if bf16 else XlaEnvVar,
                    (
                        f"`{value}` is not read by TorchNeuron: the model now trains in fp32; for "
                        'bf16 put the forward pass and loss under `torch.autocast(device_type="neuron", '
                        "dtype=torch.bfloat16)`, or cast the model with `model.to(torch.bfloat16)` "
                        "([neuron-bf16, xla-amp])"
                    )
                    if bf16
                    else f"`{value}` belongs to the XLA path; TorchNeuron's environment-variable page "
                    "does not list it: remove it (TorchNeuron is configured by `TORCH_NEURONX_*`)",
                    False,
                )
            return updated_node
        if value != "xla" and not value.startswith("xla:"):
            return updated_node
        if not self._names_device(original_node):
            return updated_node
        if value != "xla":
            self.report(
                original_node,
                TorchXlaLeft,
                f'"{value}" names an XLA device by index: TorchNeuron has no `xla` device; under '
                'torchrun each process uses `torch.device("neuron")` (its own NeuronCore)',
                False,
            )
            return updated_node
        if not self.report(
            original_node, XlaDevice, '"xla" → "neuron": TorchNeuron\'s device', True
        ):
            return updated_node
        return _restring(updated_node, "neuron")

    def _names_device(self, node: cst.SimpleString) -> bool:
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Arg):
            call = self.get_metadata(ParentNodeProvider, parent, None)
            if not isinstance(call, cst.Call):
                return False
            if parent.keyword is not None:
                return parent.keyword.value in _DEVICE_KEYWORDS
            if not call.args or call.args[0] is not parent:
                return False
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "to":
                return True
            return bool(self.module_names(call.func) & _DEVICE_FIRST)
        if isinstance(parent, cst.Assign):
            return any(
                "device" in ((dotted(t.target) or "").rsplit(".", 1)[-1]).lower()
                for t in parent.targets
            )
        if isinstance(parent, cst.ComparisonTarget):
            parent = self.get_metadata(ParentNodeProvider, parent, None)
        if isinstance(parent, cst.Comparison):
            sides = [parent.left, *(t.comparator for t in parent.comparisons)]
            return any("device" in (dotted(side) or "") for side in sides)
        return False

    # -- statements ----------------------------------------------------------------------------
    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement:
        line = super().leave_SimpleStatementLine(original_node, updated_node)
        guard = next((self._guards[s] for s in original_node.body if s in self._guards), None)
        if guard is None or not isinstance(line, cst.SimpleStatementLine) or not line.body:
            return line
        return cst.If(
            test=cst.parse_expression(guard),
            body=cst.IndentedBlock(body=[line.with_changes(leading_lines=())]),
            leading_lines=line.leading_lines,
        )

    # -- what is left --------------------------------------------------------------------------
    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        left = False
        for node, name in self._references:
            if node in self._handled:
                continue
            left = True
            row = self.table.blocker(name)
            self.report(
                node,
                NoNeuronEquivalent,
                f"`{_code(node)}` ({row.what}) has no TorchNeuron equivalent the tool can write: "
                f"{row.instead}; see {row.page}",
                False,
            )
        if left and not any(finding.fixed for finding in self.findings):
            # Nothing was ported: the imports stay with the code a person must port (removing
            # the unused ones alone would be a change with no finding to show for it).
            return updated_node
        for statement in self._imports:
            self._remove_import(statement, report=not left)
        return updated_node

    def _remove_import(self, statement: cst.Import | cst.ImportFrom, report: bool) -> None:
        """Schedule every torch_xla import for removal once unused; one that was never used
        (it only registered torch_xla) is reported, as nothing else explains its removal."""
        if isinstance(statement, cst.Import):
            for alias in statement.names:
                module = dotted(alias.name) or ""
                if module.split(".", 1)[0] not in _ROOTS:
                    continue
                asname = (
                    alias.asname.name.value
                    if alias.asname and isinstance(alias.asname.name, cst.Name)
                    else None
                )
                RemoveImportsVisitor.remove_unused_import(self.context, module, None, asname)
        else:
            module = dotted(statement.module) or ""  # type: ignore[arg-type]
            for alias in statement.names:  # type: ignore[union-attr]
                asname = (
                    alias.asname.name.value
                    if alias.asname and isinstance(alias.asname.name, cst.Name)
                    else None
                )
                RemoveImportsVisitor.remove_unused_import(
                    self.context, module, dotted(alias.name), asname
                )
        if report and not self._referenced(statement):
            self.report(
                statement,
                TorchXlaImport,
                f"`{_code(statement).strip()}` removed: it only registered torch_xla, which "
                "TorchNeuron does not have",
                True,
            )

    def _referenced(self, statement: cst.Import | cst.ImportFrom) -> bool:
        scope = self.get_metadata(ScopeProvider, statement, None)
        if scope is None:
            return True
        return any(
            assignment.references
            for assignment in scope.assignments
            if getattr(assignment, "node", None) is statement
        )


__all__ = ["XlaToNeuron"]
