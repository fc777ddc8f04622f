"""Weights a module ties in ``__init__`` come apart when the module moves to the XLA device:
torch's ``Module._apply`` makes a new Parameter per module where the CPU and XLA tensor types
cannot be shallow-copied into each other, so `lm_head.weight` and `wte.weight` become two
parameters and the program trains another model (measured with torch 2.9 + torch-xla 2.9:
1 parameter before `.to(torch_xla.device())`, 2 after; `verify --against` counted 29 trained
parameters against 28 on examples/gpt_amp.py). The tie is made again after the move (TRN250), or
reported where the move cannot be followed (TRN251).

Runs after the device pass: the moves it finds are the migrated ones, and the device is the one
the device pass wrote (``is_xla_device``).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.loader_values import Values, is_xla_device

from trncodemod.analysis.facts import FileFacts
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass
from trncodemod.targets import Target

_COMMENT = "# moving to the XLA device unties shared weights: tie them again"
_SOURCE = (
    "measured: torch 2.9 + torch-xla 2.9 (PJRT_DEVICE=CPU), Module._apply; transformers "
    "src/transformers/trainer.py Trainer._move_model_to_device (re-ties after the XLA move)"
)


class TiedWeightsRetie(Rule):
    """## What it does
    Where a module class of the file ties weights in `__init__` (`self.lm_head.weight =
    self.wte.weight`) and the file moves an instance of it to the XLA device as a statement
    (`model = GPT(cfg).to(device)`, `model.to(device)`, `model = model.to(device)`), inserts the
    same tie on the instance right after the move. XLA targets only: whether TorchNeuron's eager
    device unties weights the same way is not known, so nothing is done for `neuron`.

    ## Why
    Moving a module to the XLA device unties its tied weights: torch's `Module._apply` makes a
    new Parameter for each module where the CPU and XLA tensor types are not shallow-copy
    compatible. Measured with torch 2.9 + torch-xla 2.9: before the move the model has one
    parameter and `m.lm_head.weight is m.wte.weight`; after `.to(torch_xla.device())` it has two,
    and the program trains a different model (more parameters, each updated on its own).
    Hugging Face's Trainer ties them again after the move for the same reason
    (`Trainer._move_model_to_device` in transformers/trainer.py: "Moving a model to an XLA device
    disconnects the tied weights, so we have to retie them", then `model.tie_weights()`).

    ## Example
    ```python
    model = GPT(cfg).to(device)
    ```

    ## Use instead
    ```python
    model = GPT(cfg).to(device)
    # moving to the XLA device unties shared weights: tie them again
    model.lm_head.weight = model.wte.weight
    ```
    """

    code = "TRN250"
    name = "tied-weights-retie"
    summary = "module with tied weights moved to the XLA device → tie them again after the move"
    safety = Safety.SAFE
    severity = Severity.ERROR
    source = _SOURCE


class TiedWeightsUntied(Rule):
    """## What it does
    Reports a move to the XLA device of a module whose weights are tied where the tool cannot
    tie them again itself: the move is inside an expression (`DDP(GPT(cfg).to(device))`) or a
    statement the tie cannot follow (`models["lm"] = GPT(cfg).to(device)`, a one-line `if`), the
    tie in `__init__` depends on a condition, or the class is a Hugging Face `PreTrainedModel`
    (which ties in `tie_weights()`). XLA targets only (see TRN250).

    ## Why
    Moving a module to the XLA device unties its tied weights (torch's `Module._apply` makes new
    Parameters; measured with torch 2.9 + torch-xla 2.9), so the program trains a model with
    more parameters than the one it was written for. Hugging Face's Trainer calls
    `model.tie_weights()` after the move for this reason (`Trainer._move_model_to_device`).

    ## Example
    ```python
    model = DDP(GPT(cfg).to(device))
    ```

    ## Use instead
    ```python
    model = GPT(cfg).to(device)
    model.lm_head.weight = model.wte.weight  # or model.tie_weights() for a PreTrainedModel
    model = DDP(model)
    ```
    """

    code = "TRN251"
    name = "tied-weights-untied"
    summary = "module with tied weights moved to the XLA device where the tie cannot be redone here (report only)"
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.WARNING
    source = _SOURCE


def _chain(node: cst.BaseExpression, root: str) -> str | None:
    """`a.b` for `root.a.b` (plain attributes only), else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name) or node.value != root or len(parts) < 2:
        return None
    return ".".join(reversed(parts))


def _tie(statement: cst.CSTNode, root: str) -> tuple[str, str] | None:
    """``(target, source)`` where ``statement`` is `root.x.w = root.y.w`."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if not isinstance(small, cst.Assign) or len(small.targets) != 1:
        return None
    target, source = _chain(small.targets[0].target, root), _chain(small.value, root)
    return (target, source) if target and source else None


class _Ties:
    """The ties a class makes in its `__init__`: ``certain`` at the top of its body, and
    whether any is made under a condition or a loop (``conditional``)."""

    def __init__(self, cls: cst.ClassDef) -> None:
        self.certain: list[tuple[str, str]] = []
        self.conditional = False
        # A Hugging Face model that ties: `_tied_weights_keys` or an output embedding.
        names = {n.value for s in cls.body.body for n in _defined(s)}
        self.pretrained = any(
            (cst.Module([]).code_for_node(b.value).rsplit(".", 1)[-1]).endswith("PreTrainedModel")
            for b in cls.bases
        ) and bool(names & {"_tied_weights_keys", "get_output_embeddings"})
        init = next(
            (
                s
                for s in cls.body.body
                if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
            ),
            None,
        )
        if init is None or not init.params.params or not isinstance(init.body, cst.IndentedBlock):
            return
        root = init.params.params[0].name.value
        for statement in init.body.body:
            tie = _tie(statement, root)
            if tie is not None:
                self.certain.append(tie)
            elif not isinstance(statement, cst.SimpleStatementLine):
                self.conditional |= any(_tie(s, root) is not None for s in _statements(statement))

    def __bool__(self) -> bool:
        return bool(self.certain) or self.conditional or self.pretrained


def _defined(statement: cst.CSTNode) -> list[cst.Name]:
    """The names a class-body statement defines (a method, or a plain assignment's target)."""
    if isinstance(statement, cst.FunctionDef):
        return [statement.name]
    if isinstance(statement, cst.SimpleStatementLine):
        return [
            t.target
            for s in statement.body
            if isinstance(s, cst.Assign)
            for t in s.targets
            if isinstance(t.target, cst.Name)
        ]
    return []


def _statements(node: cst.CSTNode):
    for child in node.children:
        if isinstance(child, cst.SimpleStatementLine):
            yield child
        elif not isinstance(child, cst.FunctionDef | cst.ClassDef):
            yield from _statements(child)


class TiedWeights(Pass):
    name = "tied-weights"
    rules = (TiedWeightsRetie, TiedWeightsUntied)
    needles = (".to(",)
    # The device pass may rewrite only the line that binds the device a move uses.
    sees = frozenset({"device"})

    @classmethod
    def applies_to(cls, target: Target) -> bool:
        return target.is_xla and super().applies_to(target)

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # A move (`.to`, or `.cuda()` the device pass turns into one) and a tie in a class.
        return (
            target.is_xla
            and ("to" in facts.calls or "cuda" in facts.calls)
            and ".weight" in facts.text
            and "class " in facts.text
        )

    def visit_Module(self, node: cst.Module) -> None:
        self._classes: dict[str, _Ties] = {}
        for statement in node.body:
            if isinstance(statement, cst.ClassDef):
                ties = _Ties(statement)
                if ties:
                    self._classes[statement.name.value] = ties

    # -- the moves ---------------------------------------------------------------------------

    def _moved_class(self, call: cst.Call) -> tuple[str, _Ties] | None:
        """The class a `.to(xla)` call moves an instance of, where it is one with ties."""
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "to"):
            return None
        device = next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "device"), None
        )
        if device is None and call.args and call.args[0].keyword is None:
            device = call.args[0].value
        if device is None or not is_xla_device(self, device):
            return None
        receiver = call.func.value
        values: list[cst.BaseExpression] | None = [receiver]
        if isinstance(receiver, cst.Name | cst.Attribute):
            # What a name, a parameter or a `self.` attribute holds, as far as it is certain.
            values = Values(self).of(receiver)
        if not values:
            return None
        # `model = model.to(device)` rebinds the instance itself: its other values say the class.
        values = [v for v in values if not _moves_itself(v, receiver)]
        found = {self._instance_of(v) for v in values}
        if len(found) != 1 or None in found:
            return None
        name = found.pop()
        return (name, self._classes[name]) if name is not None else None

    def _instance_of(self, value: cst.BaseExpression) -> str | None:
        """The tying class ``value`` is an instance of: `Cls(...)`, or `Cls(...).to(...)`."""
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "to"
        ):
            value = value.func.value
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and value.func.value in self._classes
            and self.is_any(value.func, {value.func.value})
        ):
            return value.func.value
        return None

    def _statement_move(self, statement: cst.CSTNode) -> tuple[str, cst.Call] | None:
        """`(instance code, call)` where ``statement`` is `x = <call>` or `<call>` alone."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return None
        small = statement.body[0]
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            receiver = small.value.func
            if isinstance(receiver, cst.Attribute) and _chain_any(receiver.value):
                return cst.Module([]).code_for_node(receiver.value), small.value
        if (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.value, cst.Call)
        ):
            target = small.targets[0].target
            if isinstance(target, cst.Name) or _chain_any(target):
                return cst.Module([]).code_for_node(target), small.value
        return None

    def visit_Call(self, node: cst.Call) -> None:
        # A move inside an expression: reported (the statement moves are handled per block).
        if not self._classes:
            return
        moved = self._moved_class(node)
        if moved is None:
            return
        if self._handled(node):
            return
        name, ties = moved
        parent = self.get_metadata(ParentNodeProvider, node, None)
        statement = isinstance(parent, cst.Expr | cst.Assign) and parent.value is node
        why = (
            "a statement the tie cannot follow" if statement else "the move is inside an expression"
        )
        self._report_untied(node, name, ties, why)

    def _handled(self, call: cst.Call) -> bool:
        """Whether ``call`` is the move of a statement of a block that ``_retie`` handles."""
        small = self.get_metadata(ParentNodeProvider, call, None)
        line = self.get_metadata(ParentNodeProvider, small, None) if small is not None else None
        block = self.get_metadata(ParentNodeProvider, line, None) if line is not None else None
        if not isinstance(block, cst.IndentedBlock | cst.Module):
            return False
        move = self._statement_move(line)  # type: ignore[arg-type]
        return move is not None and move[1] is call

    def _report_untied(self, node: cst.CSTNode, name: str, ties: _Ties, why: str) -> None:
        if ties.pretrained:
            message = (
                f"`{name}` (a PreTrainedModel) moved to the XLA device: the move unties its tied "
                "weights; call model.tie_weights() after moving it to the XLA device"
            )
        else:
            pairs = ", ".join(f"{a} = {b}" for a, b in ties.certain) or "its weights"
            message = (
                f"`{name}` ties {pairs} in __init__ and moving it to the XLA device unties them "
                f"({why}): tie them again on the moved model"
            )
        self.report(node, TiedWeightsUntied, message, False)

    # -- the insertion -----------------------------------------------------------------------

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        body = self._retie(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body) if body is not None else updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = self._retie(original_node.body, updated_node.body)
        return updated_node.with_changes(body=body) if body is not None else updated_node

    def _retie(self, original: tuple, updated: tuple) -> list | None:
        if not self._classes or len(original) != len(updated):
            return None
        body: list = []
        changed = False
        for index, (before, after) in enumerate(zip(original, updated, strict=True)):
            body.append(after)
            move = self._statement_move(before)
            if move is None:
                continue
            instance, call = move
            moved = self._moved_class(call)
            if moved is None:
                continue
            name, ties = moved
            if ties.pretrained and _calls_tie_weights(original[index + 1 : index + 2], instance):
                continue
            if ties.pretrained or ties.conditional:
                why = "a PreTrainedModel" if ties.pretrained else "the tie depends on a condition"
                self._report_untied(call, name, ties, why)
                continue
            wanted = [f"{instance}.{a} = {instance}.{b}" for a, b in ties.certain]
            following = {
                cst.Module([]).code_for_node(s.body[0]).strip()
                for s in original[index + 1 : index + 1 + len(wanted)]
                if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
            }
            if all(w in following for w in wanted):
                continue  # already tied again (a second run)
            pairs = ", ".join(f"{a} = {b}" for a, b in ties.certain)
            if not self.report(
                call,
                TiedWeightsRetie,
                f"`{name}` ties {pairs} in __init__ and moving it to the XLA device unties "
                "them: tied again after the move",
                True,
            ):
                continue
            lines = [cst.parse_statement(w) for w in wanted]
            lines[0] = lines[0].with_changes(
                leading_lines=[cst.EmptyLine(comment=cst.Comment(_COMMENT))]
            )
            body.extend(lines)
            changed = True
        return body if changed else None


def _moves_itself(value: cst.BaseExpression, receiver: cst.BaseExpression) -> bool:
    """`x.to(...)` for a receiver `x` (a name or an attribute chain)."""
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "to"
        and value.func.value.deep_equals(receiver)
    )


def _calls_tie_weights(statements: tuple, instance: str) -> bool:
    """Whether ``statements`` start with `<instance>.tie_weights()`."""
    return bool(statements) and (
        isinstance(statements[0], cst.SimpleStatementLine)
        and cst.Module([]).code_for_node(statements[0].body[0]).strip()
        == f"{instance}.tie_weights()"
    )


def _chain_any(node: cst.BaseExpression) -> bool:
    """A plain attribute chain on a name (`self.model`)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)
