"""Whether a per-step read of the loss handed to a meter (`losses.update(loss.item(), n)`) can hand
it the tensor instead (TRN126): the ``item-hoist`` pass asks, the program model says which
classes are meters (``analysis.meters``, ``ModuleView.imported_meters``)."""

from __future__ import annotations

import ast
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
    values = _assigned_values(hoist, scope, name)
    if not values or len(values) != 1:
        return None
    value = values[0]
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        return meters.get(value.func.value)
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
