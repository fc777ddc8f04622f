"""Labels made from a tokenizer's output: where padding it would train the loss on pad tokens.

A per-example tokenize function that copies the input ids into the labels and masks only the
prompt (`labels = input_ids.copy(); labels[:prompt_len] = -100`) pads nothing while its tokenizer
pads "to the longest" of one example; padding it to `max_length` (or a multiple) puts pad tokens
into the labels, and the loss trains on them. The tokenizer's padding may change only where the
labels' pad positions become the loss's ignore index: a statement of the same function that sets
them (`-100 if t == tokenizer.pad_token_id else t`, `labels[attention_mask == 0] = -100`), or
`DataCollatorForLanguageModeling`, which rebuilds the labels from the input ids with pads set to
-100. `DataCollatorForSeq2Seq` does not: it pads with -100 only the labels it pads itself, and
labels the tokenizer padded reach it holding the pad token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.buckets_table import COLLATOR_MODULES, LABELS

from trncodemod.analysis.nodes import find

if TYPE_CHECKING:
    from trncodemod.transforms.buckets import PadToBuckets

# Names that say where the pads are, next to the ignore index in a masking statement.
_PAD_MARKERS = frozenset({"pad_token_id", "attention_mask"})
# A collator that recomputes the labels from the input ids, pads set to -100.
_LM_COLLATOR = frozenset(f"{module}.DataCollatorForLanguageModeling" for module in COLLATOR_MODULES)


def _names_in(node: cst.CSTNode) -> set[str]:
    """Every plain name and attribute name read in ``node``, and string keys (`x["labels"]`)."""
    found: set[str] = set()
    for leaf in find(node, cst.Name):
        found.add(leaf.value)  # type: ignore[attr-defined]
    for text in find(node, cst.SimpleString):
        value = text.evaluated_value  # type: ignore[attr-defined]
        if isinstance(value, str):
            found.add(value)
    return found


def _integers_in(node: cst.CSTNode) -> set[int]:
    found: set[int] = set()
    for unary in find(node, cst.UnaryOperation):
        operand = unary.expression  # type: ignore[attr-defined]
        if isinstance(unary.operator, cst.Minus) and isinstance(operand, cst.Integer):  # type: ignore[attr-defined]
            found.add(-int(operand.value))
    return found


def _label_target(target: cst.BaseExpression) -> bool:
    """`labels`, `enc["labels"]`, `self.labels`: a place that holds labels."""
    if isinstance(target, cst.Name):
        return bool(LABELS.search(target.value))
    if isinstance(target, cst.Attribute):
        return bool(LABELS.search(target.attr.value))
    if isinstance(target, cst.Subscript) and len(target.slice) == 1:
        index = target.slice[0].slice
        if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
            value = index.value.evaluated_value
            return isinstance(value, str) and bool(LABELS.search(value))
    return False


class LabelSources:
    """For one run of the buckets pass: the labels each tokenizer call's ids are copied into."""

    def __init__(self, owner: PadToBuckets, module: cst.Module) -> None:
        self.owner = owner
        self.recomputed = any(
            owner.is_any(call.func, _LM_COLLATOR)  # type: ignore[attr-defined]
            for call in find(module, cst.Call)
        )

    def unmasked_copy(self, call: cst.Call) -> cst.SimpleStatementLine | None:
        """The statement that makes labels from the ids ``call`` returns, where nothing in its
        function sets their pad positions to the loss's ignore index; None otherwise."""
        if self.recomputed:
            return None
        owner = self.owner
        statement: cst.CSTNode | None = call
        function: cst.CSTNode | None = None
        while statement is not None and not isinstance(statement, cst.SimpleStatementLine):
            statement = owner.get_metadata(ParentNodeProvider, statement, None)
        function = statement
        while function is not None and not isinstance(function, (cst.FunctionDef, cst.Module)):
            function = owner.get_metadata(ParentNodeProvider, function, None)
        if statement is None or function is None:
            return None
        lines = [
            line
            for line in find(function, cst.SimpleStatementLine)
            if isinstance(function, cst.Module) or self._function_of(line) is function
        ]
        holders: set[str] = set()
        copies: list[cst.SimpleStatementLine] = []
        started = False
        for line in lines:
            started = started or line is statement
            if not started:
                continue
            for small in line.body:  # type: ignore[attr-defined]
                if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                    continue
                targets = (
                    [t.target for t in small.targets]
                    if isinstance(small, cst.Assign)
                    else [small.target]
                )
                from_ids = line is statement or not holders.isdisjoint(_names_in(small.value))
                if not from_ids:
                    continue
                if any(_label_target(t) for t in targets):
                    copies.append(line)  # type: ignore[arg-type]
                holders |= {t.value for t in targets if isinstance(t, cst.Name)}
        if not copies:
            return None
        label_names = {
            t.value
            for copy in copies
            for small in copy.body
            for t in ([a.target for a in small.targets] if isinstance(small, cst.Assign) else [])
            if isinstance(t, cst.Name)
        } | {"labels", "label_ids"}
        ignored = owner._ignore_indices  # type: ignore[attr-defined]
        for line in lines:
            names = _names_in(line)
            if (
                not names.isdisjoint(_PAD_MARKERS)
                and not names.isdisjoint(label_names | holders)
                and not _integers_in(line).isdisjoint(ignored)
            ):
                return None  # the pads are set to the ignore index
        return copies[0]

    def joined(self, call: cst.Call) -> cst.BinaryOperation | None:
        """Where the ids ``call`` returns are joined with other tokens per example
        (`tokenized_source + tokenized_target`, qlora's collator): padded, the pads would land
        between the parts, inside the sequence the model reads. The ids are followed through
        the names they are assigned to and the loops over them, in the call's function."""
        statement: cst.CSTNode | None = call
        while statement is not None and not isinstance(statement, cst.SimpleStatementLine):
            statement = self.owner.get_metadata(ParentNodeProvider, statement, None)
        if statement is None:
            return None
        function = self._function_of(statement)
        if function is None:
            return None
        holders: set[str] = set()
        for small in statement.body:  # type: ignore[attr-defined]
            if isinstance(small, cst.Assign):
                holders |= {n.value for t in small.targets for n in _bound_names(t.target)}
            elif isinstance(small, cst.AnnAssign):
                holders |= {n.value for n in _bound_names(small.target)}
        if not holders:
            return None
        for _ in range(3):  # names made from names made from the ids
            for node in find(function, cst.Assign, cst.For):
                if isinstance(node, cst.For):
                    source, targets = node.iter, [node.target]  # type: ignore[attr-defined]
                else:
                    source, targets = node.value, [t.target for t in node.targets]  # type: ignore[attr-defined]
                if holders.isdisjoint(_names_in(source)):
                    continue
                holders |= {n.value for t in targets for n in _bound_names(t)}
        for operation in find(function, cst.BinaryOperation):
            if not isinstance(operation.operator, cst.Add):  # type: ignore[attr-defined]
                continue
            sides = (operation.left, operation.right)  # type: ignore[attr-defined]
            if any(_root_name(side) in holders for side in sides):
                return operation  # type: ignore[return-value]
        return None

    def _function_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        current = self.owner.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module)):
            current = self.owner.get_metadata(ParentNodeProvider, current, None)
        return current


def _bound_names(target: cst.BaseExpression) -> list[cst.Name]:
    """The plain names an assignment or loop target binds (`a`, `a, b`, `(a, b)`)."""
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for element in target.elements for n in _bound_names(element.value)]
    return []


def _root_name(node: cst.BaseExpression) -> str | None:
    """`ids`, `ids[0]`, `enc["input_ids"]`: the name the value is read from."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None
