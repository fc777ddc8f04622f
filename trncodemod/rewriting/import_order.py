"""Where an import the tool adds goes: into the file's own import block, where isort or ruff's
``I`` rules would put it, so a migrated file passes the project's import linting.

LibCST's ``AddImportsVisitor`` (and a pass that writes ``import os`` above the line that needs
it) appends every new import after the last one of the leading imports, in the order asked: ``import os`` below ``import torch_xla``, both
below the project's local imports (issue 14). Here the statements it added are taken out again
and each is put in its section — the standard library's, or the third-party one that holds
``torch`` — at the place that keeps the section sorted the way isort's default profile sorts:
``import x`` lines before ``from x import y`` lines, each by module name, case-insensitively.
A file whose section is not sorted gets the import before the first line that sorts after it.
"""

from __future__ import annotations

import sys

import libcst as cst
from libcst.helpers import get_full_name_for_node

_STDLIB = frozenset(sys.stdlib_module_names)
_Line = cst.SimpleStatementLine


def _import_of(statement: cst.CSTNode) -> cst.Import | cst.ImportFrom | None:
    if isinstance(statement, _Line) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Import | cst.ImportFrom):
            return small
    return None


def _module(node: cst.Import | cst.ImportFrom) -> str | None:
    """The module an import line names (its first, for ``import a, b``); None when relative."""
    if isinstance(node, cst.Import):
        return get_full_name_for_node(node.names[0].name)
    if node.relative or node.module is None:
        return None
    return get_full_name_for_node(node.module)


def _section(module: str | None) -> str:
    if module is None:
        return "local"
    top = module.split(".", 1)[0]
    if top == "__future__":
        return "future"
    return "stdlib" if top in _STDLIB else "third-party"


_RANK = {"future": 0, "stdlib": 1, "third-party": 2, "local": 3}


def _sort_key(node: cst.Import | cst.ImportFrom) -> tuple[bool, str, str]:
    alias = node.names[0].asname if isinstance(node, cst.Import) else None
    alias_name = get_full_name_for_node(alias.name) if alias is not None else ""
    return (isinstance(node, cst.ImportFrom), (_module(node) or "").lower(), alias_name or "")


def _open_section(body: list[cst.BaseStatement], end: int, line: _Line, section: str) -> int:
    """Put ``line`` in a section of its own, one blank line apart, before the first import of a
    later section (after the last import when there is none). Returns the lines added."""
    imports = [i for i in range(end) if _import_of(body[i]) is not None]
    if not imports:
        body.insert(end, line)
        return 1
    later = next(
        (i for i in imports if _RANK[_section(_module(_import_of(body[i])))] > _RANK[section]),
        None,
    )
    if later is None:
        body.insert(imports[-1] + 1, line.with_changes(leading_lines=(cst.EmptyLine(),)))
    else:
        body.insert(later, line.with_changes(leading_lines=body[later].leading_lines))
        body[later + 1] = body[later + 1].with_changes(leading_lines=(cst.EmptyLine(),))
    return 1


def _kind(node: cst.Import | cst.ImportFrom) -> tuple[bool, str, str]:
    return _sort_key(node)


def _added(before: cst.Module, body: list[cst.BaseStatement]) -> list[int]:
    """Indices in ``body`` of the top-level import lines that ``before`` has none of (by kind,
    module and alias): what the pass or AddImportsVisitor added. Names merged into an import
    the file had keep that line where it is."""
    had = {_kind(node) for statement in before.body if (node := _import_of(statement)) is not None}
    return [
        index
        for index, statement in enumerate(body)
        if (node := _import_of(statement)) is not None and _kind(node) not in had
    ]


def _leading_end(body: list[cst.BaseStatement]) -> int:
    """The index after the leading run of docstring and import lines."""
    for index, statement in enumerate(body):
        docstring = (
            index == 0
            and isinstance(statement, _Line)
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
        )
        if not docstring and _import_of(statement) is None:
            return index
    return len(body)


def place_added_imports(before: cst.Module, after: cst.Module) -> cst.Module:
    """``after`` (what a pass made of ``before``) with each import it added moved into
    its section of the leading import block, sorted; an import whose section the block lacks
    stays after the block, where it was put."""
    kept = _without_repeats(before, list(after.body))
    body = [_sort_merged_names(before, s) for s in kept]
    end = _leading_end(body)
    added = [index for index in _added(before, body) if index < end]
    if not added:
        if len(kept) < len(after.body):
            # The repeat went, and so goes the blank line AddImportsVisitor put below it
            # (hifi-gan's `import warnings` / `warnings.simplefilter(...)` / `import torch`).
            _undo_separator(before, body, end)
        return after.with_changes(body=body)
    moving = [body[i] for i in added]
    body = [statement for i, statement in enumerate(body) if i not in added]
    end -= len(moving)
    _undo_separator(before, body, end)
    moving = [line for statement in moving for line in _split_aliases(statement)]
    for statement in moving:
        node = _import_of(statement)
        assert node is not None  # _added only takes import lines
        section = _section(_module(node))
        members = [
            i
            for i in range(end)
            if _import_of(body[i]) is not None and _section(_module(_import_of(body[i]))) == section
        ]
        later = _torch_line_after(body, end) if section == "third-party" else None
        if later is not None and not any(_top(body[i]) == "torch" for i in members):
            # The file imports torch below a statement that ends the leading block (nanochat's
            # `os.environ[...] = ...` between `import os` and the rest): the import joins
            # torch's group there, after the environment the script sets up first.
            body.insert(
                _sorted_position(body, later, node), statement.with_changes(leading_lines=())
            )
            continue
        if not members:
            end += _open_section(body, end, statement, section)
            continue
        # The section's lines are those of its group: consecutive import lines, no blank line;
        # for a third-party import, the group that holds torch where the file has one (detr's
        # unsorted block starts with `from packaging import version` among the stdlib).
        anchor = next((i for i in members if _top(body[i]) == "torch"), members[0])
        first, last = anchor, anchor
        while first - 1 in members and not _blank_before(body[first]):
            first -= 1
        while last + 1 < end and last + 1 in members and not _blank_before(body[last + 1]):
            last += 1
        key = _sort_key(node)
        position = next(
            (i for i in range(first, last + 1) if _sort_key(_import_of(body[i])) > key), last + 1
        )
        placed = statement.with_changes(leading_lines=())
        if position == first:
            # Taking the group's first line keeps its blank lines and comments above the group.
            placed = placed.with_changes(leading_lines=body[first].leading_lines)
            body[first] = body[first].with_changes(leading_lines=())
        body.insert(position, placed)
        end += 1
    return after.with_changes(body=body)


def _without_repeats(before: cst.Module, body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """``body`` without an import line the pass added that repeats one the file already had:
    AddImportsVisitor looks only at the leading block, so where the file imports torch_xla below
    it (yolov5's imports after a `try: import comet_ml`) a second pass wrote `import torch_xla`
    again. Only lines beyond the file's own count of that import go, and only lines the pass
    made (a statement it kept is the same object as before), never one of the file's own."""
    own = {id(statement) for statement in before.body}
    had: dict[tuple[bool, str, str], int] = {}
    for statement in before.body:
        if (node := _import_of(statement)) is not None:
            had[_kind(node)] = had.get(_kind(node), 0) + 1
    counts: dict[tuple[bool, str, str], int] = {}
    for statement in body:
        if (node := _import_of(statement)) is not None:
            counts[_kind(node)] = counts.get(_kind(node), 0) + 1
    extra = {k: n - had[k] for k, n in counts.items() if had.get(k) and n > had[k]}
    if not extra:
        return body
    kept = []
    for statement in body:
        node = _import_of(statement)
        if node is not None and id(statement) not in own and extra.get(_kind(node), 0) > 0:
            extra[_kind(node)] -= 1
            continue
        kept.append(statement)
    return kept


def _torch_line_after(body: list[cst.BaseStatement], end: int) -> int | None:
    """The index of a top-level ``import torch``/``from torch... import`` at or after ``end``."""
    return next((i for i in range(end, len(body)) if _top(body[i]) == "torch"), None)


def _sorted_position(
    body: list[cst.BaseStatement], anchor: int, node: cst.Import | cst.ImportFrom
) -> int:
    """Where ``node`` goes among the torch import lines around ``anchor`` (consecutive, no blank
    line between), sorted as isort sorts them."""
    first, last = anchor, anchor

    def member(i: int) -> bool:
        return _top(body[i]).startswith("torch")

    while first - 1 >= 0 and member(first - 1) and not _blank_before(body[first]):
        first -= 1
    while last + 1 < len(body) and member(last + 1) and not _blank_before(body[last + 1]):
        last += 1
    key = _sort_key(node)
    return next(
        (i for i in range(first + 1, last + 1) if _sort_key(_import_of(body[i])) > key), last + 1
    )


def _top(statement: cst.BaseStatement) -> str:
    node = _import_of(statement)
    return ((_module(node) if node is not None else None) or "").split(".", 1)[0]


def _undo_separator(before: cst.Module, body: list[cst.BaseStatement], end: int) -> None:
    """AddImportsVisitor puts a blank line above the first statement after the imports it
    appended; with them moved into the block, that statement gets its own leading lines back
    (detr's `import torchvision` right above `if version.parse(...)`)."""
    had = _leading_end(list(before.body))
    if end >= len(body) or had >= len(before.body):
        return
    original = before.body[had].leading_lines  # type: ignore[attr-defined]
    current = getattr(body[end], "leading_lines", None)
    if (
        current is not None
        and len(current) == len(original) + 1
        and current[0].comment is None
        and tuple(current[1:]) == tuple(original)
    ):
        body[end] = body[end].with_changes(leading_lines=original)


def _split_aliases(statement: cst.BaseStatement) -> list[cst.BaseStatement]:
    """An added ``from m import a as b, c as d`` as one statement per name, as isort and ruff
    write aliased names by default (``combine-as-imports`` off); other imports as they are."""
    node = _import_of(statement)
    if (
        not isinstance(node, cst.ImportFrom)
        or isinstance(node.names, cst.ImportStar)
        or len(node.names) < 2
        or any(alias.asname is None for alias in node.names)
        or not isinstance(statement, cst.SimpleStatementLine)
    ):
        return [statement]
    return [
        statement.with_changes(
            body=[
                node.with_changes(
                    names=[alias.with_changes(comma=cst.MaybeSentinel.DEFAULT)],
                    lpar=None,
                    rpar=None,
                )
            ]
        )
        for alias in sorted(node.names, key=_name_key)
    ]


def _blank_before(statement: cst.BaseStatement) -> bool:
    return bool(getattr(statement, "leading_lines", ()))


def _name_key(alias: cst.ImportAlias) -> tuple[int, str]:
    """isort's and ruff's order-by-type: constants, then classes, then the rest, each
    case-insensitively."""
    name = get_full_name_for_node(alias.name) or ""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def _sort_merged_names(before: cst.Module, statement: cst.BaseStatement) -> cst.BaseStatement:
    """A ``from`` import that names were merged into, in order again when the file had it in
    order (AddImportsVisitor appends them)."""
    node = _import_of(statement)
    if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
        return statement
    if any(statement.deep_equals(old) for old in before.body):
        return statement  # a line the pass did not touch stays as the file has it
    for old in before.body:
        old_node = _import_of(old)
        if (
            isinstance(old_node, cst.ImportFrom)
            and not isinstance(old_node.names, cst.ImportStar)
            and _kind(old_node) == _kind(node)
            and len(old_node.names) < len(node.names)
            and list(old_node.names) == sorted(old_node.names, key=_name_key)
        ):
            names = sorted(node.names, key=_name_key)
            commas = [alias.comma for alias in node.names]
            ordered = [
                alias.with_changes(comma=comma) for alias, comma in zip(names, commas, strict=True)
            ]
            return statement.with_changes(body=[node.with_changes(names=ordered)])
    return statement
