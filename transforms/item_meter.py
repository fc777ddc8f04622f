"""Whether a per-step read of the loss handed to a meter (`losses.update(loss.item(), n)`) can hand
it the tensor instead (TRN126): the ``item-hoist`` pass asks, the program model says which
classes are meters (``analysis.meters``, ``ModuleView.imported_meters``)."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

import libcst as cst
import libcst.matchers as m
from libcst.metadata import ParentNodeProvider, ScopeProvider
from trncodemod.transforms.item_hoist_table import LOSS_NAME

from trncodemod.analysis.loops import dotted
from trncodemod.analysis.meters import Meter, module_meters
from trncodemod.analysis.nodes import walk

if TYPE_CHECKING:
    from trncodemod.transforms.item_hoist import ItemHoist, Sync

# Calls a meter may be handed to that only format it.
_FORMATTING = frozenset({"builtins.print", "builtins.str", "builtins.format"})


def file_meters(hoist: ItemHoist) -> dict[str, Meter]:
    """The meter classes a name of this file may construct: its own top-level classes, and
    those it imports from another module of the program."""
    facts = hoist.run.facts
    if facts is None:
        return {}
    found = {
        name: meter
        for name, meter in module_meters(facts.tree).items()
        if name not in facts.imported
    }
    for name, meter in hoist.run.program.imported_meters.items():
        if name in facts.imported and name not in facts.global_names:
            found.setdefault(name, meter)
    return found


def meter_call(
    hoist: ItemHoist, sync: Sync, backward: set[str], meters: dict[str, Meter]
) -> str | None:
    """`receiver.method` when ``sync`` reads the loss only to hand it to a meter that can take
    the tensor (see ``ItemMeter``); None when that is not certain."""
    if not meters or sync.spelling not in ("item", "float"):
        return None
    loss = sync.tensor
    if not (isinstance(loss, cst.Name) and loss.value in backward):
        return None
    parent = _parent(hoist, sync.node)
    call = _parent(hoist, parent)
    if not (
        isinstance(parent, cst.Arg)
        and parent.keyword is None
        and not parent.star
        and isinstance(call, cst.Call)
        and call.args[0] is parent
        and m.matches(call.func, m.Attribute(value=m.Name(), attr=m.Name()))
        and isinstance(_parent(hoist, call), cst.Expr)
    ):
        return None
    receiver, method = call.func.value, call.func.attr.value  # type: ignore[attr-defined]
    scope = hoist.get_metadata(ScopeProvider, call, None)
    if scope is None or not _scalar_loss(hoist, scope, loss.value):
        return None
    meter = _constructed(hoist, scope, receiver.value, meters)
    if meter is None or method not in meter[0]:
        return None
    holding = set(meter[1])
    if not _used_as_meter(hoist, scope, receiver.value, holding):
        return None
    if not _no_holding_reads(hoist, scope, receiver.value, holding, meters):
        return None
    return f"{receiver.value}.{method}"


def _parent(hoist: ItemHoist, node: cst.CSTNode | None) -> cst.CSTNode | None:
    return None if node is None else hoist.get_metadata(ParentNodeProvider, node, None)


def _assigned_values(hoist: ItemHoist, scope, name: str) -> list[cst.BaseExpression] | None:
    """What each assignment of ``name`` in ``scope`` binds it to; None when one is not a plain
    `name = value` (a loop target, `+=`, unpacking, a parameter)."""
    values = []
    for assignment in scope.assignments[name]:
        target = assignment.node
        holder = _parent(hoist, target)
        assign = _parent(hoist, holder)
        if not (isinstance(holder, cst.AssignTarget) and isinstance(assign, cst.Assign)):
            return None
        if len(assign.targets) != 1 or assign.targets[0].target is not target:
            return None
        values.append(assign.value)
    return values


def _scalar_loss(hoist: ItemHoist, scope, name: str) -> bool:
    """The loss is bound only by calls of a loss function or criterion that reduce it to a 0-d
    tensor (no `reduction="none"`): `.item()` of a one-element tensor of another shape would
    format differently as a tensor. Nothing changes it in place (`loss /= n` rebinds it here,
    `loss.div_(n)`): `loss.detach()` shares its storage, the number `.item()` gave did not."""
    values = _assigned_values(hoist, scope, name)
    if not values:
        return False
    for access in scope.accesses[name]:
        parent = _parent(hoist, access.node)
        if isinstance(parent, cst.Attribute) and parent.value is access.node:
            attr = parent.attr.value
            if attr == "data" or (attr.endswith("_") and not attr.startswith("__")):
                return False  # `loss.div_(n)`: the meter's `loss.detach()` would change with it
    for value in values:
        if not isinstance(value, cst.Call):
            return False
        callee = dotted(value.func) or ""
        names = hoist.module_names(value.func)
        if not (
            LOSS_NAME.search(callee.rsplit(".", 1)[-1])
            or any(q.startswith("torch.nn.functional.") and "loss" in q for q in names)
        ):
            return False
        if any(a.keyword is not None and a.keyword.value == "reduction" for a in value.args):
            if not any(
                a.keyword is not None
                and a.keyword.value == "reduction"
                and m.matches(a.value, m.SimpleString(value=m.MatchIfTrue(_reduces)))
                for a in value.args
            ):
                return False
    return True


def _reduces(text: str) -> bool:
    return text.strip("'\"") in ("mean", "sum")


def _constructed(hoist: ItemHoist, scope, name: str, meters: dict[str, Meter]) -> Meter | None:
    """The meter ``name`` holds where the function binds it only by that class's constructor."""
    cls = _constructor(hoist, scope, name)
    return None if cls is None else meters.get(cls)


def _constructor(hoist: ItemHoist, scope, name: str) -> str | None:
    """The class ``name`` is bound to by its one assignment in ``scope``, `name = Cls(...)`."""
    call = _construction(hoist, scope, name)
    return call.func.value if call is not None and isinstance(call.func, cst.Name) else None


def _construction(hoist: ItemHoist, scope, name: str) -> cst.Call | None:
    """The call of ``name``'s one assignment in ``scope``, `name = f(...)`."""
    values = _assigned_values(hoist, scope, name)
    if values and len(values) == 1 and isinstance(values[0], cst.Call):
        return values[0]
    return None


def _used_as_meter(hoist: ItemHoist, scope, name: str, holding: set[str]) -> bool:
    """Every use of the meter in its function calls a method, reads an attribute that does not
    hold the value, or hands it (alone or in a list) to print/str/format or to a function or
    class defined in this module."""
    facts = hoist.run.facts
    own = set()
    if facts is not None:
        own = {
            s.name
            for s in facts.tree.body
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
    for access in scope.accesses[name]:
        node = access.node
        parent = _parent(hoist, node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value in holding:
                return False
            continue
        if isinstance(parent, cst.Element):
            parent = _parent(hoist, _parent(hoist, parent))  # the list, then its argument
            if not isinstance(parent, cst.Arg):
                return False
        if not isinstance(parent, cst.Arg):
            return False
        call = _parent(hoist, parent)
        if not isinstance(call, cst.Call):
            return False
        if isinstance(call.func, cst.Name) and call.func.value in own:
            continue
        if not hoist.is_any(call.func, _FORMATTING):
            return False
    return True


def _no_holding_reads(
    hoist: ItemHoist, scope, name: str, holding: set[str], meters: dict[str, Meter]
) -> bool:
    """Nothing in the module reads a holding attribute of an object that may be the meter: the
    reads outside the meter classes are on names bound only by a meter class's constructor in
    their own function (another instance: `top1.avg`), never on ``name`` of ``scope``. A call of
    the attribute (`x.sum(0)`) is no such read: the meter's number is not callable."""
    facts = hoist.run.facts
    if facts is None:
        return False
    classes = {s for s in hoist.tree.body if isinstance(s, cst.ClassDef) and s.name.value in meters}
    inside = {id(n) for c in classes for n in walk(c)}
    for node in walk(hoist.tree):
        if not (isinstance(node, cst.Attribute) and node.attr.value in holding):
            continue
        if id(node) in inside:
            continue
        call = _parent(hoist, node)
        if isinstance(call, cst.Call) and call.func is node:
            continue  # `x.float().sum(0)`: called, so not a meter's number
        owner = node.value
        if not isinstance(owner, cst.Name):
            return False
        own_scope = hoist.get_metadata(ScopeProvider, owner, None)
        if own_scope is None or (own_scope is scope and owner.value == name):
            return False
        values = _assigned_values(hoist, own_scope, owner.value)
        if not values or not all(
            isinstance(v, cst.Call) and isinstance(v.func, cst.Name) and v.func.value in meters
            for v in values
        ):
            return False
    return True


# Calls whose result is a host number, whatever they are given: a meter handed one of these
# (`data_time.update(time.time() - end)`) holds no tensor.
_HOST_CALLS = frozenset({"item", "tolist", "float", "int", "len", "round"})
# A `str.format` field that names an attribute: `{val` of `"{name} {val" + self.fmt + "}"`.
_FIELD = re.compile(r"(?<!\{)\{(\w+)")


def meter_prints(
    hoist: ItemHoist, own: list[cst.CSTNode], updates: list[cst.Call], meters: dict[str, Meter]
) -> list[tuple[cst.Call, str]]:
    """The calls of a training loop that print meters holding device tensors, with the finding's
    message, where one print reads two or more of their values (TRN127).

    ``own``: the loop's own nodes; ``updates``: the calls TRN126 hands the loss tensor in it
    (`losses.update(loss.detach(), n)`). A print is `print`/`str`/`format` of a meter, a function of this module
    handed meters (`display(i, [losses, top1])`), or a method of an object of this module's
    classes constructed with them (`progress.display(i)`, `progress = ProgressMeter(n, [...])`),
    where that function or method formats something. Each value the meter class's `__str__`
    formats (`{val}`, `{avg}`) is read by a transfer of its own; a meter the loop hands another
    value (`top1.update(acc1[0], n)`) may hold a tensor too, and is counted as such, said so."""
    classes = _module_classes(hoist)
    held: dict[str, str] = {}  # meter name -> its class
    for update in updates:
        receiver = update.func.value.value  # type: ignore[attr-defined]
        scope = hoist.get_metadata(ScopeProvider, update, None)
        cls = None if scope is None else _constructor(hoist, scope, receiver)
        if cls is not None:
            held[receiver] = cls
    fields = {
        name: _printed(classes[cls], meters[cls]) for name, cls in held.items() if cls in classes
    }
    if not any(fields.values()):
        return []
    maybe: dict[str, cst.BaseExpression] = {}  # other meters of the loop, by the value handed
    for node in own:
        if not (
            isinstance(node, cst.Call)
            and m.matches(node.func, m.Attribute(value=m.Name(), attr=m.Name()))
            and node.args
        ):
            continue
        receiver = node.func.value.value  # type: ignore[attr-defined]
        if receiver in held or receiver in maybe:
            continue
        scope = hoist.get_metadata(ScopeProvider, node, None)
        cls = None if scope is None else _constructor(hoist, scope, receiver)
        meter = meters.get(cls) if cls in classes else None  # a meter class of this module
        if meter is None or node.func.attr.value not in meter[0]:  # type: ignore[attr-defined]
            continue
        value = node.args[0].value
        if not _host_value(hoist, value):
            maybe[receiver] = value
            fields[receiver] = _printed(classes[cls], meters[cls])
    found = []
    for node in own:
        if not isinstance(node, cst.Call):
            continue
        handed = _printed_meters(hoist, node, classes, {*held, *maybe})
        # a meter of a class from another module has no fields here: said, not counted
        printed = [n for n in handed if n in fields]
        uncounted = [n for n in handed if n not in fields]
        certain = sum(len(fields[name]) for name in printed if name in held)
        total = sum(len(fields[name]) for name in printed)
        if certain and (total >= 2 or uncounted):
            message = _prints_message(node, printed, uncounted, held, maybe, fields, certain)
            found.append((node, message))
    return found


def _module_classes(hoist: ItemHoist) -> dict[str, ast.ClassDef]:
    facts = hoist.run.facts
    if facts is None:
        return {}
    return {s.name: s for s in facts.tree.body if isinstance(s, ast.ClassDef)}


def _printed(cls: ast.ClassDef, meter: Meter) -> tuple[str, ...]:
    """The value-holding attributes the class's `__str__`/`__format__` formats, in the order it
    names them: fields of its strings (`"{name} {val" + self.fmt + "} ({avg"`) or `self.avg`."""
    holding = set(meter[1])
    named: list[tuple[int, int, str]] = []
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.name in ("__str__", "__format__"):
            for node in ast.walk(statement):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    where = (node.lineno, node.col_offset)
                    named.extend((*where, field) for field in _FIELD.findall(node.value))
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                    named.append((node.lineno, node.col_offset, node.attr))
    return tuple(dict.fromkeys(n for *_, n in sorted(named) if n in holding))


def _host_value(hoist: ItemHoist, value: cst.BaseExpression) -> bool:
    """The value is visibly a host number: a literal, or built from calls that give one
    (`loss.item()`, `float(x)`, `time.time() - end`)."""
    if isinstance(value, cst.Integer | cst.Float):
        return True
    for node in walk(value):
        if isinstance(node, cst.Call):
            func = node.func
            name = (
                func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
            )
            if name in _HOST_CALLS or any(q.startswith("time.") for q in hoist.module_names(func)):
                return True
    return False


def _printed_meters(
    hoist: ItemHoist, call: cst.Call, classes: dict[str, ast.ClassDef], names: set[str]
) -> list[str]:
    """The meters of ``names`` that ``call`` prints, in the order it is handed them."""
    handed = _handed(call, names)
    if hoist.is_any(call.func, _FORMATTING):
        return handed
    facts = hoist.run.facts
    if facts is None:
        return []
    if isinstance(call.func, cst.Name):
        return handed if _formats(_function(facts.tree.body, call.func.value)) else []
    if not m.matches(call.func, m.Attribute(value=m.Name(), attr=m.Name())):
        return []
    scope = hoist.get_metadata(ScopeProvider, call, None)
    owner = call.func.value.value  # type: ignore[attr-defined]
    if scope is None or owner in names:
        return []
    made = _construction(hoist, scope, owner)  # `progress = ProgressMeter(n, [losses, ...])`
    cls = classes.get(made.func.value) if made and isinstance(made.func, cst.Name) else None
    method = call.func.attr.value  # type: ignore[attr-defined]
    if made is None or cls is None or not _formats(_function(cls.body, method)):
        return []
    return _handed(made, names)


def _function(body: list[ast.stmt], name: str) -> ast.FunctionDef | None:
    return next((s for s in body if isinstance(s, ast.FunctionDef) and s.name == name), None)


def _handed(call: cst.Call, names: set[str]) -> list[str]:
    """Meters of ``names`` among the call's arguments, alone, in a list or tuple, or in an
    f-string."""
    handed: list[str] = []
    for arg in call.args:
        for node in walk(arg.value):
            if isinstance(node, cst.Name) and node.value in names and node.value not in handed:
                handed.append(node.value)
    return handed


def _formats(function: ast.FunctionDef | None) -> bool:
    """The function builds text from its values: `str(...)`, `print(...)`, `.format(...)` or an
    f-string."""
    if function is None:
        return False
    for node in ast.walk(function):
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("str", "print", "format"):
                return True
            if isinstance(func, ast.Attribute) and func.attr == "format":
                return True
    return False


def _prints_message(
    call: cst.Call,
    printed: list[str],
    uncounted: list[str],
    held: dict[str, str],
    maybe: dict[str, cst.BaseExpression],
    fields: dict[str, tuple[str, ...]],
    certain: int,
) -> str:
    total = sum(len(fields[name]) for name in printed)

    def values(names: list[str]) -> str:
        return _names([f"{n}.{f}" for n in names for f in fields[n]])

    mine = [n for n in printed if n in held]
    others = [n for n in printed if n in maybe and fields[n]]
    code = cst.Module([]).code_for_node
    said = f"{values(mine)}, held since TRN126 hands `{mine[0]}` the loss tensor"
    if others:
        handed = ", ".join(f"`{code(maybe[n])}`" for n in others)
        said = (
            f"{certain} certain ({said}); {total - certain} more if {handed}, handed to "
            f"{_names(others)}, {'are tensors' if len(others) > 1 else 'is a tensor'}"
        )
        views = [n for n in others if isinstance(maybe[n], cst.Subscript)]
        if views:
            said += f", and a view such as `{code(maybe[views[0]])}` also runs a graph to be read"
    every = ", ".join(f"{n}.{f}" for n in printed for f in fields[n])
    also = (
        f" (and those of {_names(uncounted)}, whose class is in another module: not counted)"
        if uncounted
        else ""
    )
    return (
        f"`{code(call)}` reads {total} values from the device{also}, a transfer each: {said}. To read "
        f"them in one, stack them in the step, before its graph cut (`shown = "
        f"torch.stack([{every}])`: one graph for every step), and at log steps set the meters "
        "from `shown.cpu().tolist()` before printing; or print fewer values"
    )


def _names(names: list[str]) -> str:
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
