"""Imports that cannot load on the target's torch: ``torch._six``, gone since torch 2.0, is
replaced by what it held where that is exact, and reported where it is not (issue 23, item 5).
Every target runs torch 2.x (``data/targets.toml``). Other private names a target's torch lacks
(``torch._utils._accumulate``...) are data in ``data/removed_torch_names.toml``
(``torch_removed.py``)."""

from __future__ import annotations

import ast

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import ParentNodeProvider
from trncodemod.transforms.torch_removed import (
    LocalRankOption,
    RemovedName,
    RemovedPythonName,
    RemovedTorchCall,
    RemovedTorchKeyword,
    RemovedTorchName,
    RemovedTorchNameLeft,
    StftReturnComplex,
    TorchVersionGate,
    removed_calls,
    removed_calls_on,
    removed_keywords,
    removed_keywords_on,
    removed_names,
    removed_on,
)
from trncodemod.transforms.zero_dim_index import (
    OldIndexRead,
    ZeroDimIndex,
    ZeroDimIndexRewrite,
    reads_zero_dim,
)

from trncodemod.analysis.facts import FileFacts
from trncodemod.analysis.nodes import find
from trncodemod.analysis.torch_version import decide
from trncodemod.findings import Rule, Safety, Severity
from trncodemod.rewriting.calls import append_keyword, without_keyword
from trncodemod.targets import Target

_SIX = "torch._six"
# What torch/_six.py (torch 1.x) bound each name to, spelled without it: the same objects.
# `string_classes = (str, bytes)`, `int_classes = int`, `container_abcs = collections.abc`,
# `inf = math.inf`, `nan = math.nan`. PY3, PY37, with_metaclass have no one-line equivalent.
_MATH = frozenset({"inf", "nan"})
_VALUES = {"string_classes": "(str, bytes)", "int_classes": "int"}
_MODULES = {"container_abcs": "collections.abc"}
_EXPRESSIONS = {
    "inf": "math.inf",
    "nan": "math.nan",
    **_VALUES,
    "container_abcs": "collections.abc",
}
# Handlers that already cover the import failing: a fallback the file wrote itself.
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


class TorchSixImport(Rule):
    """## What it does
    Replaces what a module takes from `torch._six` with what `torch._six` held:
    `from torch._six import inf` → `from math import inf` (also `nan`), `string_classes` →
    `string_classes = (str, bytes)`, `int_classes` → `int_classes = int`, `container_abcs` →
    `import collections.abc as container_abcs`; `torch._six.inf` → `math.inf` and the like, and
    `import torch._six` → `import torch`. An import inside a `try` that catches `ImportError`
    already has a fallback and is left alone.

    ## Why
    `torch._six` was removed in torch 2.0; every target runs torch 2.x (2.1.2 to 2.9, TorchNeuron
    2.13+), so the import fails with `ModuleNotFoundError` and the program never starts. The
    replacements are the very objects `torch/_six.py` bound (torch 1.13: `inf = math.inf`,
    `string_classes = (str, bytes)`); `review`, because a module now binds a name it used to
    import.

    ## Example
    ```python
    from torch._six import inf, string_classes
    ```

    ## Use instead
    ```python
    from math import inf
    string_classes = (str, bytes)
    ```
    """

    code = "TRN048"
    name = "torch-six-import"
    summary = "`from torch._six import inf` (gone in torch 2) → `from math import inf` and alike"
    safety = Safety.REVIEW
    severity = Severity.ERROR
    sources = ("torch-six", "torch-2-0-release")


class TorchSixLeft(Rule):
    """## What it does
    Reports a use of `torch._six` the tool cannot replace exactly: `PY3`, `PY37`,
    `with_metaclass`, a star import, or the module imported under another name.

    ## Why
    `torch._six` was removed in torch 2.0 and every target runs torch 2.x: the import fails with
    `ModuleNotFoundError`, so the program does not start (a blocker).

    ## Example
    ```python
    from torch._six import PY37, with_metaclass
    ```

    ## Use instead
    ```python
    PY37 = True  # every supported Python is 3.7 or later
    class Base(metaclass=Meta): ...
    ```
    """

    code = "TRN049"
    name = "torch-six-left"
    summary = (
        "`torch._six` name with no exact replacement: the import fails on torch 2 (report only)"
    )
    fixable = False
    safety = Safety.REVIEW
    severity = Severity.BLOCKER
    sources = ("torch-2-0-release",)


_VERSIONS = frozenset({"torch.__version__", "torch.version.__version__"})
_EXITS = frozenset({"sys.exit", "builtins.exit", "builtins.quit", "os._exit"})


def _spelled(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name | ast.Attribute):
        return ast.unparse(node)
    return None


def _statement(code: str) -> cst.BaseSmallStatement:
    return cst.parse_statement(code).body[0]  # type: ignore[union-attr,return-value]


class TorchImports(ZeroDimIndexRewrite):
    name = "torch-imports"
    rules = (
        TorchSixImport,
        TorchSixLeft,
        RemovedTorchName,
        RemovedPythonName,
        RemovedTorchNameLeft,
        RemovedTorchCall,
        RemovedTorchKeyword,
        StftReturnComplex,
        TorchVersionGate,
        LocalRankOption,
        ZeroDimIndex,
        OldIndexRead,
    )
    needles = (
        ".data[0]",
        "stft",
        "_six",
        "_accumulate",
        "ffi",
        "_DataLoaderIter",
        "numpy_type_map",
        "_classes",
        "collections",
        "__version__",
        "--local_rank",
        *{entry.keyword for entry in removed_keywords()},
        *(entry.name.rsplit(".", 1)[-1] for entry in removed_calls()),
    )

    @classmethod
    def candidate(cls, facts: FileFacts, target: Target) -> bool:
        # Every rewrite and report is at a name under torch._six, or a module of the removed
        # names' table, the file reaches, a call of a removed function, or a loss read as
        # torch 0.3 read it (`loss.data[0]`).
        if reads_zero_dim(facts) or "__version__" in facts.identifiers:
            return True
        if "--local_rank" in facts.strings:
            return True
        if any(
            facts.reaches(*entry.callables) and entry.keyword in facts.identifiers
            for entry in removed_keywords()
        ):
            return True
        if facts.reaches(_SIX, "torch.stft", *{entry.module for entry in removed_names()}):
            return True
        return any(
            facts.reaches(entry.name)
            or (entry.method and entry.name.rsplit(".", 1)[-1] in facts.calls)
            for entry in removed_calls()
        )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._removed = removed_on(self.target.torch)
        self._removed_calls = removed_calls_on(self.target.torch)
        self._removed_keywords = removed_keywords_on(self.target.torch)
        self._methods = {
            entry.name.rsplit(".", 1)[-1]: entry
            for entry in self._removed_calls.values()
            if entry.method
        }

    def visit_Call(self, node: cst.Call) -> None:
        """A call of a function the target's torch removed: it raises wherever it runs."""
        if not self._removed_calls:
            return
        names = self.module_names(node.func)
        entry = next((self._removed_calls[n] for n in names if n in self._removed_calls), None)
        if entry is None and not names and isinstance(node.func, cst.Attribute):
            entry = self._methods.get(node.func.attr.value)  # `x.symeig()`: a tensor's method
        if entry is None:
            return
        spelled = cst.Module([]).code_for_node(node.func)
        self.report(
            node,
            RemovedTorchCall,
            f"`{spelled}(...)` was removed in torch 2.0 (deprecated since 1.9): on the target's "
            f"torch {self.target.torch} the call raises RuntimeError, on any device; use "
            f"{entry.instead}",
            False,
        )

    # -- checks of torch's version (TRN068) -------------------------------------------------------
    def visit_Assert(self, node: cst.Assert) -> None:
        if self._version_check(node.test) is False:
            code = cst.Module([]).code_for_node(node.test)
            self.report(
                node,
                TorchVersionGate,
                f"`assert {code}` is False on the target's torch {self.target.torch}: the "
                "program stops here with AssertionError; make the check accept torch 2, or drop it",
                False,
            )

    def visit_If(self, node: cst.If) -> None:
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
        stops = any(
            isinstance(statement, cst.SimpleStatementLine)
            and any(
                isinstance(small, cst.Raise)
                or isinstance(small, cst.Expr)
                and isinstance(small.value, cst.Call)
                and bool(self.module_names(small.value.func) & _EXITS)
                for small in statement.body
            )
            for statement in body
        )
        if stops and self._version_check(node.test) is True:
            code = cst.Module([]).code_for_node(node.test)
            self.report(
                node,
                TorchVersionGate,
                f"`if {code}:` is True on the target's torch {self.target.torch}, and its body "
                "stops the program (it raises or exits); make the check accept torch 2, or drop it",
                False,
            )

    def _version_check(self, test: cst.BaseExpression) -> bool | None:
        """What ``test``, a check that reads `torch.__version__`, is on the target's torch."""
        reads = {
            cst.Module([]).code_for_node(node)
            for node in find(test, cst.Attribute, cst.Name)
            if (node.attr.value if isinstance(node, cst.Attribute) else node.value) == "__version__"
            and self.module_names(node) & _VERSIONS
        }
        if not reads:
            return None
        try:
            tree = ast.parse(cst.Module([]).code_for_node(test).strip(), mode="eval")
        except SyntaxError:
            return None
        return decide(tree.body, self.target.torch, lambda n: _spelled(n) in reads)

    def _local_rank_spelling(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """`add_argument("--local_rank", ...)` → with `"--local-rank"` after it (TRN070)."""
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "add_argument"):
            return updated
        if not self.run.program.torch_launched:
            return updated  # torchrun, accelerate and deepspeed pass the rank otherwise
        names = [
            (index, arg.value)
            for index, arg in enumerate(original.args)
            if arg.keyword is None and not arg.star and isinstance(arg.value, cst.SimpleString)
        ]
        spelled = {value.evaluated_value for _, value in names}
        if "--local_rank" not in spelled or "--local-rank" in spelled:
            return updated
        index, value = next((i, v) for i, v in names if v.evaluated_value == "--local_rank")
        if not self.report(
            value,
            LocalRankOption,
            "torch 2's `python -m torch.distributed.launch` passes `--local-rank=<rank>`, which "
            "a parser with only `--local_rank` rejects (unrecognized arguments) → both spellings",
            True,
        ):
            return updated
        quote = value.quote
        args = list(updated.args)
        first = args[index]
        # The new spelling takes the comma after the old one, with its line break where the
        # call puts one argument on each line.
        dashed = cst.Arg(
            cst.SimpleString(f"{value.prefix}{quote}--local-rank{quote}"), comma=first.comma
        )
        if first.comma == cst.MaybeSentinel.DEFAULT:
            # The option's last argument: `add_argument("--local_rank")`.
            args[index] = first.with_changes(
                comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            )
        return updated.with_changes(args=[*args[: index + 1], dashed, *args[index + 1 :]])

    def _drop_removed_keywords(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        """`ReduceLROnPlateau(..., verbose=True)` → without it, on a torch that raises for it."""
        for entry in self._removed_keywords:
            passed = next(
                (a for a in original.args if a.keyword and a.keyword.value == entry.keyword), None
            )
            if passed is None or not self.module_names(original.func) & entry.callables:
                continue
            spelled = cst.Module([]).code_for_node(original.func)
            gone = (
                f"`{spelled}(..., {entry.keyword}=...)`: torch {self.target.torch} no longer "
                f"takes `{entry.keyword}=` (TypeError)"
            )
            if find(passed.value, cst.Call):
                self.report(passed, RemovedTorchKeyword, f"{gone}; drop it ({entry.does})", False)
                continue
            if self.report(passed, RemovedTorchKeyword, f"{gone} → dropped; {entry.does}", True):
                updated = without_keyword(updated, entry.keyword)
        return updated

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        """`torch.stft(...)` without `return_complex`: it raises on torch 2 for a real signal;
        the real output it gave on torch 1 is `view_as_real` of the complex one (TRN061)."""
        if self._removed_keywords:
            updated_node = self._drop_removed_keywords(original_node, updated_node)
        updated_node = self._local_rank_spelling(original_node, updated_node)
        func = original_node.func
        if (
            isinstance(func, cst.Name)
            and self.module_names(func) & {"torch.stft", "torch.functional.stft"}
            and not any(
                a.star or a.keyword is not None and a.keyword.value == "return_complex"
                for a in original_node.args
            )
        ):
            self.report(
                original_node,
                StftReturnComplex,
                f"`{func.value}(...)` (torch.stft) without `return_complex` raises on torch 2 for "
                f"a real signal (the target's torch {self.target.torch}): write "
                "`torch.view_as_real(torch.stft(..., return_complex=True))`, the real tensor it "
                "gave on torch 1",
                False,
            )
            return updated_node
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "stft"
            and self.module_names(func) & {"torch.stft", "torch.functional.stft"}
            and isinstance(func.value, cst.Name)
            and self.module_names(func.value) & {"torch"}
            and not any(a.star for a in original_node.args)
            and not any(
                a.keyword is not None and a.keyword.value == "return_complex"
                for a in original_node.args
            )
        ):
            return updated_node
        spelled = cst.Module([]).code_for_node(func)
        message = (
            f"`{spelled}(...)` without `return_complex` raises on torch 2 for a real signal "
            f"(the target's torch {self.target.torch}) → `view_as_real` of its complex output with "
            "`return_complex=True`, the real tensor it gave on torch 1 (a complex input would "
            "now be returned as real pairs)"
        )
        if not self.report(original_node, StftReturnComplex, message, True):
            return updated_node
        call = append_keyword(updated_node, "return_complex", cst.Name("True"))
        return cst.Call(
            func=cst.Attribute(value=func.value, attr=cst.Name("view_as_real")),
            args=[cst.Arg(call)],
        )

    def _has_fallback(self, node: cst.CSTNode) -> bool:
        current = self.get_metadata(ParentNodeProvider, node, None)
        while current is not None and not isinstance(current, cst.FunctionDef | cst.Module):
            if isinstance(current, cst.Try):
                for handler in current.handlers:
                    kinds = handler.type
                    names = (
                        [e.value for e in kinds.elements]
                        if isinstance(kinds, cst.Tuple)
                        else [kinds]
                        if kinds is not None
                        else []
                    )
                    if kinds is None or any(
                        isinstance(n, cst.Name) and n.value in _IMPORT_ERRORS for n in names
                    ):
                        return True
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ):
        body: list[cst.BaseSmallStatement] = []
        changed = False
        for original, updated in zip(original_node.body, updated_node.body, strict=True):
            replaced = self._replace(original, updated)
            changed |= replaced is not None
            body.extend(replaced if replaced is not None else [updated])
        if not changed:
            return updated_node
        if not body:
            return cst.RemovalSentinel.REMOVE
        if len(original_node.body) > 1:
            return updated_node.with_changes(body=body)
        # Imports first, then the names it bound, a blank line apart as isort lays them out.
        imports = [s for s in body if isinstance(s, cst.Import | cst.ImportFrom)]
        values = [s for s in body if s not in imports]
        lines = [cst.SimpleStatementLine([s]) for s in imports + values]
        if values:
            first = len(imports)
            lines[first] = lines[first].with_changes(leading_lines=[cst.EmptyLine()])
        lines[0] = lines[0].with_changes(
            leading_lines=[*updated_node.leading_lines, *lines[0].leading_lines]
        )
        lines[-1] = lines[-1].with_changes(trailing_whitespace=updated_node.trailing_whitespace)
        return cst.FlattenSentinel(lines)

    def _replace(
        self, original: cst.BaseSmallStatement, updated: cst.BaseSmallStatement
    ) -> list[cst.BaseSmallStatement] | None:
        if isinstance(original, cst.Import) and isinstance(updated, cst.Import):
            return self._replace_import(original, updated)
        if not isinstance(original, cst.ImportFrom) or original.relative:
            return None
        module = get_full_name_for_node(original.module) if original.module else None
        if module != _SIX and module is not None and not self._has_fallback(original):
            return self._replace_removed(original, updated, module)
        if module != _SIX or self._has_fallback(original):
            return None
        if isinstance(original.names, cst.ImportStar):
            self.report(
                original,
                TorchSixLeft,
                "`from torch._six import *`: torch._six is gone in torch 2; import what is used "
                "from math, collections.abc or the builtins",
                False,
            )
            return None
        math: list[cst.ImportAlias] = []
        made: list[cst.BaseSmallStatement] = []
        kept: list[cst.ImportAlias] = []
        for alias in original.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            local = alias.asname.name.value if alias.asname is not None else name  # type: ignore[union-attr]
            if name in _MATH:
                math.append(alias.with_changes(comma=cst.MaybeSentinel.DEFAULT))
            elif name in _VALUES:
                made.append(_statement(f"{local} = {_VALUES[name]}"))
            elif name in _MODULES:
                made.append(_statement(f"import {_MODULES[name]} as {local}"))
            else:
                kept.append(alias.with_changes(comma=cst.MaybeSentinel.DEFAULT))
        if kept:
            names = ", ".join(cst.Module([]).code_for_node(a) for a in kept)
            self.report(
                original,
                TorchSixLeft,
                f"`{names}` from torch._six (gone in torch 2) has no exact replacement: the "
                "import fails on the target; define it in the module or drop its use",
                False,
            )
        if not math and not made:
            return None
        replaced = [
            cst.Module([]).code_for_node(a.with_changes(comma=cst.MaybeSentinel.DEFAULT))
            for a in original.names
            if not (isinstance(a.name, cst.Name) and a.name.value not in _EXPRESSIONS)
        ]
        message = f"torch._six is gone in torch 2: {', '.join(replaced)} taken from what it held"
        if not self.report(original, TorchSixImport, message, True):
            return None
        statements: list[cst.BaseSmallStatement] = []
        if math:
            statements.append(cst.ImportFrom(module=cst.Name("math"), names=math))
        statements += made
        if kept:
            statements.append(updated.with_changes(names=kept))  # type: ignore[union-attr]
        return statements

    def _replace_removed(
        self, original: cst.ImportFrom, updated: cst.ImportFrom, module: str
    ) -> list[cst.BaseSmallStatement] | None:
        """`from torch._utils import _accumulate` → `from itertools import accumulate as
        _accumulate` where every call passes only what the replacement takes; reported where
        not, or where nothing replaces the name."""
        if isinstance(original.names, cst.ImportStar):
            return None
        replaced: list[cst.BaseSmallStatement] = []
        kept: list[cst.ImportAlias] = []
        for alias, new in zip(original.names, updated.names, strict=True):  # type: ignore[arg-type]
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            entry = self._removed.get(f"{module}.{name}")
            if entry is None:
                kept.append(new.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                continue
            local = alias.asname.name.value if alias.asname is not None else name  # type: ignore[union-attr]
            problem = self._replacement_problem(entry, local)
            if problem is not None:
                self.report(alias, RemovedTorchNameLeft, problem, False)
                kept.append(new.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                continue
            source, _, target_name = entry.replacement.rpartition(".")
            spelled = f"from {source} import {target_name}"
            spelled += f" as {local}" if local != target_name else ""
            if not self.report(
                alias,
                self._rule_for(entry),
                f"`{entry.full}` is gone from {self._gone_from(entry)}: the import raises "
                f"ImportError → `{spelled}`",
                True,
            ):
                kept.append(new.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                continue
            replaced.append(_statement(spelled))
        if not replaced:
            return None
        if kept:
            replaced.insert(0, updated.with_changes(names=kept))
        return replaced

    def _rule_for(self, entry: RemovedName) -> type[Rule]:
        return RemovedPythonName if entry.python else RemovedTorchName

    def _gone_from(self, entry: RemovedName) -> str:
        """Where ``entry`` is gone: the target's torch, or the Python that torch requires."""
        if entry.python:
            return (
                f"Python {entry.python}, the oldest the target's torch {self.target.torch} runs on"
            )
        return f"torch {self.target.torch}"

    def _replacement_problem(self, entry: RemovedName, local: str) -> str | None:
        """Why ``entry``, bound to ``local``, cannot be replaced here; None where it can."""
        gone = (
            f"`{entry.full}` is gone from torch {self.target.torch}: the import raises "
            "ImportError and every program that imports this module stops there"
        )
        if not entry.replacement:
            return f"{gone}; nothing in torch or the standard library is the same: drop its use"
        for call in find(self._wrapper.module, cst.Call):
            callee = call.func
            named = isinstance(callee, cst.Name) and callee.value == local
            if not named and not (
                isinstance(callee, cst.Attribute) and self.is_any(callee, {entry.full})
            ):
                continue
            unsafe = sorted(
                arg.keyword.value
                for arg in call.args
                if arg.keyword is not None and arg.keyword.value in entry.unsafe_keywords
            )
            if unsafe or any(arg.star == "**" for arg in call.args):
                passed = f"`{unsafe[0]}=`" if unsafe else "`**` keywords"
                return (
                    f"{gone}; a call passes {passed}, which `{entry.replacement}` does not take: "
                    f"import `{entry.replacement}` and pass the function positionally"
                )
        return None

    def _replace_import(
        self, original: cst.Import, updated: cst.Import
    ) -> list[cst.BaseSmallStatement] | None:
        for alias in original.names:
            entry = self._removed.get(get_full_name_for_node(alias.name) or "")
            if entry is not None and not entry.name and not self._has_fallback(original):
                self.report(
                    original,
                    RemovedTorchNameLeft,
                    f"`import {entry.full}`: it is gone from torch {self.target.torch}, so the "
                    "import raises ImportError and every program that imports this module "
                    "stops there",
                    False,
                )
        six = [a for a in original.names if get_full_name_for_node(a.name) == _SIX]
        if not six or self._has_fallback(original):
            return None
        if any(a.asname is not None for a in six):
            self.report(
                original,
                TorchSixLeft,
                "`import torch._six as ...`: torch._six is gone in torch 2; use math, "
                "collections.abc or the builtins where its names are used",
                False,
            )
            return None
        if not self.report(
            original, TorchSixImport, "`import torch._six` (gone in torch 2) → `import torch`", True
        ):
            return None
        names = [a.with_changes(name=cst.Name("torch")) if a in six else a for a in updated.names]
        return [updated.with_changes(names=names)]

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = original_node.attr.value
        removed = self._removed_attribute(original_node)
        if removed is not None:
            return self._replace_removed_attribute(original_node, updated_node, removed)
        if name not in _EXPRESSIONS or not self.is_any(original_node, {f"{_SIX}.{name}"}):
            return updated_node
        if isinstance(self.get_metadata(ParentNodeProvider, original_node, None), cst.ImportAlias):
            return updated_node
        replacement = _EXPRESSIONS[name]
        if not self.report(
            original_node,
            TorchSixImport,
            f"torch._six is gone in torch 2: torch._six.{name} → {replacement}",
            True,
        ):
            return updated_node
        if "." in replacement:
            self.add_import(replacement.rsplit(".", 1)[0] if name in _MATH else replacement)
        expression = cst.parse_expression(replacement)
        if updated_node.lpar:
            expression = expression.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return expression

    def _removed_attribute(self, node: cst.Attribute) -> RemovedName | None:
        """The removed name ``node`` spells as an attribute (`torch._utils._accumulate`)."""
        entry = next(
            (
                e
                for full, e in self._removed.items()
                if e.name == node.attr.value and self.is_any(node, {full})
            ),
            None,
        )
        if entry is None:
            return None
        if isinstance(self.get_metadata(ParentNodeProvider, node, None), cst.ImportAlias):
            return None
        return entry

    def _replace_removed_attribute(
        self, original: cst.Attribute, updated: cst.Attribute, entry: RemovedName
    ) -> cst.BaseExpression:
        problem = self._replacement_problem(entry, "")
        if problem is not None:
            self.report(original, RemovedTorchNameLeft, problem, False)
            return updated
        if not self.report(
            original,
            self._rule_for(entry),
            f"`{entry.full}` is gone from {self._gone_from(entry)} (AttributeError) → "
            f"`{entry.replacement}`",
            True,
        ):
            return updated
        self.add_import(entry.replacement.rpartition(".")[0])
        expression = cst.parse_expression(entry.replacement)
        if updated.lpar:
            expression = expression.with_changes(lpar=updated.lpar, rpar=updated.rpar)
        return expression
