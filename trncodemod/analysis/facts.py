"""What a file's names are, read once from Python's ``ast``: the first stage of the pipeline.

LibCST parses about ten times slower than CPython's parser, and a pass's own walk, scopes and
positions cost several parses more. Most files a pass is offered hold nothing it acts on, so
before any of that every pass is asked ``Pass.candidate(facts, target)``: can it possibly act
on this file? A pass answers from these facts, and may answer "yes" too often but never "no"
where it would act (report a finding or change the code): the first stage decides which passes
run on a file, and a file none of them is a candidate for is never parsed by LibCST at all.
``benchmarks/first_stage.py`` and ``tests/test_first_stage.py`` hold each pass to that.

The facts are syntax, not meaning: every identifier the file spells, the dotted names it reaches
through its imports, the string constants it holds. They over-approximate what LibCST's
qualified names resolve (an import the file shadows still counts), which is the safe direction.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from trncodemod.analysis.ast_nodes import nodes
from trncodemod.analysis.training import TrainingProfile, dotted, profile_of


@dataclass(frozen=True)
class FileFacts:
    """The names one version of a file uses. ``tree`` is the ``ast`` it was read from, for a
    pass whose candidate test needs structure (a call inside a loop); ``profile`` is the
    training profile of the file as given (it does not change as passes rewrite it)."""

    text: str
    tree: ast.Module
    profile: TrainingProfile
    # Every identifier spelled: names, attribute names, the parts of imported modules and
    # their aliases, defined functions, classes and parameters, keyword argument names.
    identifiers: frozenset[str]
    # What is called, by its last name: `x.item()` and `item()` both give "item".
    calls: frozenset[str]
    # Dotted names reached through the file's imports: `import torch.cuda.amp as amp` and
    # `amp.GradScaler` give "torch.cuda.amp.GradScaler"; every imported module and name is one
    # too (`import a.b.c` gives "a.b.c", `from a.b import c` "a.b" and "a.b.c"), and a name bound
    # by two imports reaches through both.
    qualified: frozenset[str]
    # Local names an import binds, relative imports included; "*" when a star import may bind
    # any name.
    imported: frozenset[str]
    # Local name -> every module or object an absolute import anywhere in the file binds it to;
    # a name bound in the global scope otherwise (`torch = None`) also to itself.
    bindings: Mapping[str, frozenset[str]]
    # Names bound in the global scope other than by an import (see _global_bindings).
    global_names: frozenset[str]
    # Name -> the values assignments anywhere bind it to directly: `x = ...`, `a = x = ...`,
    # `x: T = ...` (not `x, y = ...`, `x += ...` or `x: T`): a superset of what
    # ``Pass.bound_values`` finds for a name, wherever it is read.
    assigned: Mapping[str, tuple[ast.expr, ...]]
    # String constants, whole (f-string parts included): "cuda", "XLA_USE_BF16".
    strings: frozenset[str]
    # How many `for`/`while` loops (and comprehensions) the file has.
    loops: int
    # Subscripts with a slice (`x[:, :n]`), and subscripts of any kind.
    slices: int
    subscripts: int

    def spells(self, *identifiers: str) -> bool:
        """Whether the file spells one of ``identifiers`` as a name or attribute."""
        return not self.identifiers.isdisjoint(identifiers)

    def calls_any(self, *names: str) -> bool:
        return not self.calls.isdisjoint(names)

    def reaches(self, *prefixes: str) -> bool:
        """Whether a dotted name the file reaches through its imports is one of ``prefixes``
        or lies under one (``reaches("torch.cuda")`` holds for `torch.cuda.amp.autocast`)."""
        return any(
            name == p or name.startswith(p + ".") for name in self.qualified for p in prefixes
        )

    def resolve(self, node: ast.AST) -> set[str]:
        """The dotted names ``node`` (a name or attribute chain) may stand for through the
        file's imports: a superset of what LibCST's qualified names resolve through imports."""
        return resolve(self.bindings, node)

    def calls_one_of(self, *names: str) -> bool:
        """Whether the file may call a function whose qualified name is one of ``names``: it
        reaches the name, and calls it by its last part (`dist.init_process_group(...)`) or by a
        name an import binds to it (`from torch.distributed import init_process_group as init`)."""
        for name in names:
            if name not in self.qualified:
                continue
            if name.rsplit(".", 1)[-1] in self.calls:
                return True
            if any(name in self.bindings.get(call, ()) for call in self.calls):
                return True
        return False

    def may_be_call_of(self, name: str, *qualified: str) -> bool:
        """Whether an assignment anywhere binds ``name`` to a call of one of ``qualified``
        (through the file's imports: a superset of what LibCST resolves the callee to)."""
        return any(
            type(value) is ast.Call and not self.resolve(value.func).isdisjoint(qualified)
            for value in self.assigned.get(name, ())
        )

    def holds_string(self, *needles: str) -> bool:
        """Whether a string constant contains one of ``needles``."""
        return any(n in s for s in self.strings for n in needles)

    @functools.cached_property
    def xla_at_top(self) -> bool:
        """Whether a statement of the module's top level imports a torch_xla module."""
        return any(_imports_torch_xla(statement) for statement in self.tree.body)

    @functools.cached_property
    def xla_optional(self) -> bool:
        """Whether the file keeps torch_xla an optional dependency: it imports a torch_xla module
        only under a guard (`if is_torch_xla_available():`, a `try`, a function), or asks
        whether torch_xla is available, and never imports it at the top of the module.

        A script's own flag is not such a guard: an entry script (``TrainingProfile``'s, the
        same test every pass uses) that imports torch_xla only where its flag says (`if args.tpu:
        import torch_xla...`) has a partial TPU path, and its port makes torch_xla required like
        any other. A lazy import in a function, with no `if`, stays optional."""
        if self.xla_at_top:
            return False
        if self.calls_any(*_XLA_AVAILABILITY):
            return True
        guards = _torch_xla_guards(self.tree.body, ())
        if not guards:
            return False
        return not (self.profile.is_entry_script and "optional" not in guards)

    @functools.cached_property
    def names(self) -> NameTable:
        """What the scope analysis is certain to resolve some names to (``_name_table``): what
        ``Pass`` answers qualified names from without that analysis."""
        return _name_table(self.tree)


# The availability checks of transformers, accelerate and diffusers.
_XLA_AVAILABILITY = ("is_torch_xla_available", "is_torch_tpu_available", "is_tpu_available")


def _torch_xla_guards(body: Iterable[ast.stmt], around: tuple[ast.AST, ...]) -> set[str]:
    """How each torch_xla import below the top level is guarded: "optional" under a ``try``
    (an ImportError handled) or an ``if`` that asks whether a module is there
    (``find_spec``, ``*available*``); "flag" under anything else (a user's flag, a function)."""
    found: set[str] = set()
    for statement in body:
        if _imports_torch_xla(statement):
            if around:
                flagged = any(type(a) is ast.If for a in around)
                optional = any(map(_asks_for_module, around)) or not flagged
                found.add("optional" if optional else "flag")
            continue
        for name in BLOCKS:
            inner = getattr(statement, name, None)
            if not inner:
                continue
            if name == "handlers" or name == "cases":
                for handler in inner:
                    found |= _torch_xla_guards(handler.body, (*around, statement))
            else:
                found |= _torch_xla_guards(inner, (*around, statement))
    return found


def _asks_for_module(statement: ast.AST) -> bool:
    if type(statement) is ast.Try:
        return True
    if type(statement) is ast.If:
        if "TYPE_CHECKING" in {n.id for n in ast.walk(statement.test) if type(n) is ast.Name}:
            return True
        return any(
            type(node) is ast.Call
            and (dotted(node.func) or "").rsplit(".", 1)[-1] in _MODULE_QUESTIONS
            or (type(node) is ast.Call and "available" in (dotted(node.func) or ""))
            for node in ast.walk(statement.test)
        )
    return False


# Calls that ask whether a module can be imported (besides the `*available*` helpers).
_MODULE_QUESTIONS = frozenset({"find_spec", "find_loader", "import_module"})


def _imports_torch_xla(node: ast.AST) -> bool:
    if type(node) is ast.Import:
        return any(a.name.split(".", 1)[0] == "torch_xla" for a in node.names)  # type: ignore[attr-defined]
    if type(node) is ast.ImportFrom:
        return not node.level and (node.module or "").split(".", 1)[0] == "torch_xla"  # type: ignore[attr-defined]
    return False


# -- global bindings other than imports --------------------------------------------------------
# LibCST's QualifiedNameProvider also names `torch.x` as "torch.x" (source LOCAL) where `torch`
# is bound in the global scope by something other than an import (`torch = lazy("torch")`,
# `except ImportError: torch = None`, `global torch`): such names count as reached too.
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# The fields that hold statements (or handlers and cases, which hold statements).
BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _has_global_statement(text: str) -> bool:
    """Whether ``text`` may hold a `global` statement: the word at a line's start, or after
    `;` or a one-line suite's `:`, and followed by a blank (a text search, then a look around
    each hit: a regular expression over the whole text is slower)."""
    start = text.find("global")
    while start != -1:
        before = text[text.rfind("\n", 0, start) + 1 : start].rstrip(" \t")
        after = text[start + 6 : start + 7]
        if (not before or before[-1] in ";:") and after in (" ", "\t", "\\"):
            return True
        start = text.find("global", start + 6)
    return False


def target_names(target: ast.AST | None) -> set[str]:
    """The names an assignment or loop target binds (`x`, `a, *b`; not `x.y` or `x[i]`)."""
    names: set[str] = set()
    _target_names(target, names)
    return names


def _target_names(target: ast.AST | None, names: set[str]) -> None:
    """The names an assignment target binds (`x`, `a, *b`; not `x.y` or `x[i]`)."""
    stack = [target]
    while stack:
        node = stack.pop()
        if type(node) is ast.Name:
            names.add(node.id)  # type: ignore[union-attr]
        elif type(node) in (ast.Tuple, ast.List):
            stack.extend(node.elts)  # type: ignore[union-attr]
        elif type(node) is ast.Starred:
            stack.append(node.value)  # type: ignore[union-attr]


def _global_bindings(tree: ast.Module, text: str) -> frozenset[str]:
    """Names bound in the module's global scope other than by an import: assignment, loop,
    `with` and `except` targets, `match` captures, `def`/`class`/`type` names at module level,
    walrus targets outside function and class bodies, and every name a `global` statement
    declares. Statements are walked, and expressions only where the text has a walrus."""
    names: set[str] = set()
    walrus = ":=" in text
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Assign:
            for target in node.targets:  # type: ignore[attr-defined]
                _target_names(target, names)
        elif kind in (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor):
            _target_names(node.target, names)  # type: ignore[attr-defined]
        elif kind in (ast.With, ast.AsyncWith):
            for item in node.items:  # type: ignore[attr-defined]
                _target_names(item.optional_vars, names)
        elif kind in DEFINITIONS or kind is ast.ExceptHandler and node.name:
            names.add(node.name)  # type: ignore[attr-defined]
        elif kind is ast.match_case:
            for pattern in ast.walk(node.pattern):  # type: ignore[attr-defined]
                if type(pattern) in (ast.MatchAs, ast.MatchStar) and pattern.name:  # type: ignore[attr-defined]
                    names.add(pattern.name)  # type: ignore[attr-defined]
                elif type(pattern) is ast.MatchMapping and pattern.rest:  # type: ignore[attr-defined]
                    names.add(pattern.rest)  # type: ignore[attr-defined]
        elif kind.__name__ == "TypeAlias":  # Python 3.12
            _target_names(node.name, names)  # type: ignore[attr-defined]
        for field, value in ast.iter_fields(node):
            if field in BLOCKS:
                if kind not in DEFINITIONS:  # a function's or class's body is another scope
                    stack.extend(value)
            elif walrus:
                for part in value if type(value) is list else (value,):
                    if isinstance(part, ast.AST) and not isinstance(part, ast.pattern):
                        for inner in ast.walk(part):
                            if type(inner) is ast.NamedExpr:
                                _target_names(inner.target, names)  # type: ignore[attr-defined]
    if _has_global_statement(text):  # `global x` in a function binds x here
        statements: list[ast.AST] = list(tree.body)
        while statements:
            node = statements.pop()
            if type(node) is ast.Global:
                names.update(node.names)  # type: ignore[attr-defined]
            for field in BLOCKS:
                statements.extend(getattr(node, field, ()))
    return frozenset(names)


# -- names whose binding the file's syntax settles ------------------------------------------------
# What opens a scope of its own: its body's bindings are not the global scope's.
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


@dataclass(frozen=True)
class NameTable:
    """What LibCST's scope analysis is certain to resolve some names to, wherever they are read
    (``_name_table``); the test suite holds it to LibCST's answers (tests/test_import_names.py).

    ``imports``: local name -> the one dotted name every import of it binds. ``global_only``:
    names bound in the global scope by something other than an import, and nowhere else, which
    LibCST names by themselves (`main` of `def main()`). ``shadowed``: names bound in the global
    scope and in others, by anything but an import: LibCST names a read by itself where no scope
    around it binds the name (``Pass`` looks at the scopes around it). ``bound``: every name
    something other than an import binds, anywhere (a superset: `del`, `global` and `nonlocal`
    count too). ``imported``: every name an import binds, anywhere (not `*`). ``local_only``: names
    bound only in scopes other than the global one, never by an import and never declared
    `global` or `nonlocal`: a read that no scope around binds is a builtin's, or nothing.
    ``simple``: names bound only by statements of functions' bodies and of the global scope
    (assignments, loops, `with`, `except`, imports, definitions) and by functions' parameters:
    never in a class's body, by a lambda's parameter, a comprehension's or walrus target, and
    never declared `global` or `nonlocal`. LibCST's assignments of a read are then the bindings
    of the first body around it that binds it (``Pass.visible_assignments``). ``declared``:
    the names of every `global` and `nonlocal` statement. ``import_targets``: name -> the one
    dotted name every import of it binds (as ``imports``, in any scope, read before or after)."""

    imports: Mapping[str, str]
    global_only: frozenset[str]
    shadowed: frozenset[str]
    bound: frozenset[str]
    imported: frozenset[str]
    local_only: frozenset[str]
    simple: frozenset[str]
    declared: frozenset[str]
    import_targets: Mapping[str, str]


def _name_table(tree: ast.Module) -> NameTable:
    """The names whose every read LibCST resolves the same way:

    - an import name: bound by imports only (`import x`, `import a.b as x`, `from a import b
      as x`, `from ..a import b`; never a dotted `import a.b`, whose first part LibCST resolves
      by longest prefix), all to the same name, one of them in the global scope (a function's
      own import of it names the same, and a read before it falls back to the global one);
    - a global-only name: bound in the global scope only, and never by an import;
    - a shadowed name: bound in the global scope and in others, and never by an import;

    and, for both, never declared `global` or `nonlocal`, and never read outside a function's
    body before the statement of its first binding ends (LibCST leaves a read of the global
    scope that comes before its binding unresolved; `x = f(x)` reads before it binds). Bindings
    are collected generously (default values and decorators count as a function's, a loop's
    target binds where the loop ends), so a name in doubt is left out."""
    targets: dict[str, set[str]] = {}
    first: dict[str, tuple[int, int]] = {}
    excluded: set[str] = set()  # bound otherwise than the two kinds allow
    in_global: set[str] = set()  # bound in the global scope by something other than an import
    elsewhere: set[str] = set()  # bound in another scope by anything
    reads: list[ast.Name] = []  # reads LibCST checks against the global scope's binding order
    global_imports: set[str] = set()
    # Bound by a lambda's parameter, a comprehension's or walrus target, or in a class's body.
    unusual: set[str] = set()
    declared: set[str] = set()  # named by a `global` or `nonlocal` statement
    # (node, in the global scope, a read there may come before a binding of the global scope:
    # outside a function's body, so in its decorators, defaults and annotations too; and where
    # the innermost statement around it ends)
    stack: list[tuple[ast.AST, bool, bool, tuple[int, int]]] = [(tree, True, True, (0, 0))]

    def bind(name: str, top: bool | None, at: tuple[int, int]) -> None:
        """Record a binding: of the global scope, of another, or (None) an import; as taking
        effect where its statement ends (`x = f(x)` reads `x` before it binds it)."""
        if top is not None:
            (in_global if top else elsewhere).add(name)
        if top is not False and (name not in first or at < first[name]):
            first[name] = at  # the global scope's first

    while stack:
        node, top, outside, end = stack.pop()
        kind = type(node)
        if isinstance(node, ast.stmt):
            end = (node.end_lineno or node.lineno, node.end_col_offset or 0)
        if kind is ast.Import or kind is ast.ImportFrom:
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name == "*":
                    continue  # LibCST binds nothing for a star import
                bound = alias.asname or alias.name
                if kind is ast.Import:
                    target = alias.name
                    if not alias.asname and "." in alias.name:
                        # `import a.b` binds `a`, and LibCST names a read `a.x` of it "a.x",
                        # as it would for `import a`
                        bound = target = alias.name.split(".", 1)[0]
                else:  # ImportAssignment.get_qualified_names_for's spelling
                    module = "." * node.level + (node.module or "")  # type: ignore[attr-defined]
                    dot = "" if module.endswith(".") else "."
                    target = f"{module}{dot}{alias.name}"
                targets.setdefault(bound, set()).add(target)
                if top:
                    global_imports.add(bound)
                    bind(bound, None, end)
            continue
        if kind is ast.Name:
            ctx = type(node.ctx)  # type: ignore[attr-defined]
            if ctx is ast.Load:
                if outside:
                    reads.append(node)  # type: ignore[arg-type]
            elif ctx is ast.Store:
                bind(node.id, top, end)  # type: ignore[attr-defined]
            else:
                excluded.add(node.id)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            bind(node.arg, False, end)  # type: ignore[attr-defined]
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            bind(node.name, top, end)  # type: ignore[attr-defined]
            if kind is ast.ClassDef:
                unusual.update(_bound_in_class(node))  # type: ignore[arg-type]
        elif kind is ast.ExceptHandler:
            if node.name:  # type: ignore[attr-defined]
                bind(node.name, top, end)  # type: ignore[attr-defined]
        elif kind in (ast.MatchAs, ast.MatchStar):
            if node.name:  # type: ignore[attr-defined]
                excluded.add(node.name)  # type: ignore[attr-defined]  # LibCST misses some
        elif kind is ast.MatchMapping:
            if node.rest:  # type: ignore[attr-defined]
                excluded.add(node.rest)  # type: ignore[attr-defined]
        elif kind in (ast.Global, ast.Nonlocal):
            excluded.update(node.names)  # type: ignore[attr-defined]
            declared.update(node.names)  # type: ignore[attr-defined]
        elif kind is ast.NamedExpr or kind is ast.comprehension:
            unusual.update(target_names(node.target))  # type: ignore[attr-defined]
        elif kind is ast.Lambda:
            arguments = node.args  # type: ignore[attr-defined]
            unusual.update(
                a.arg
                for a in (
                    *arguments.posonlyargs,
                    *arguments.args,
                    *arguments.kwonlyargs,
                    arguments.vararg,
                    arguments.kwarg,
                )
                if a is not None
            )
        elif hasattr(node, "name") and isinstance(node.name, str):  # type parameters (3.12)
            excluded.add(node.name)
        inner = top and kind not in _SCOPES
        if kind in _FUNCTIONS:
            body = node.body  # type: ignore[attr-defined]
            statements = body if type(body) is list else [body]
            in_body = {id(child) for child in statements}
            stack.extend((child, False, False, end) for child in statements)
            stack.extend(
                (child, False, outside, end)
                for child in ast.iter_child_nodes(node)
                if id(child) not in in_body
            )
        else:
            stack.extend((child, inner, outside, end) for child in ast.iter_child_nodes(node))
    bound_otherwise = in_global | elsewhere | excluded
    imports = {
        name: next(iter(bound))
        for name, bound in targets.items()
        if len(bound) == 1 and name not in bound_otherwise and name in global_imports
    }
    global_only = in_global - elsewhere - excluded - targets.keys()
    shadowed = (in_global & elsewhere) - excluded - targets.keys()
    early = {
        read.id for read in reads if (read.lineno, read.col_offset) < first.get(read.id, (0, 0))
    }
    return NameTable(
        {name: bound for name, bound in imports.items() if name not in early},
        frozenset(global_only - early),
        frozenset(shadowed - early),
        frozenset(bound_otherwise),
        frozenset(targets),
        frozenset(elsewhere - in_global - excluded - targets.keys()),
        frozenset(in_global | elsewhere | targets.keys()) - excluded - unusual,
        frozenset(declared),
        {name: next(iter(bound)) for name, bound in targets.items() if len(bound) == 1},
    )


def _bound_in_class(node: ast.ClassDef) -> set[str]:
    """Every name the statements of a class's body bind (not a nested function's or class's
    body): its targets, imports, `except` names and definitions."""
    names: set[str] = set()
    stack: list[ast.AST] = list(node.body)
    while stack:
        child = stack.pop()
        kind = type(child)
        if kind is ast.Name:
            if type(child.ctx) is ast.Store:  # type: ignore[attr-defined]
                names.add(child.id)  # type: ignore[attr-defined]
        elif kind is ast.Import or kind is ast.ImportFrom:
            names.update(
                a.asname or a.name.split(".")[0]
                for a in child.names  # type: ignore[attr-defined]
                if a.name != "*"
            )
        elif kind in DEFINITIONS or kind is ast.ExceptHandler and child.name:  # type: ignore[attr-defined]
            names.add(child.name)  # type: ignore[attr-defined]
        if kind not in DEFINITIONS:
            stack.extend(ast.iter_child_nodes(child))
    return names


def may_resolve(facts: FileFacts, names: Iterable[str]) -> bool:
    """Whether LibCST may give some node of the file one of the qualified ``names`` (dotted
    names with a module as their first part): reached through an import, or through a global
    non-import binding of the first part with the other parts spelled."""
    qualified = facts.qualified
    for name in names:
        if name in qualified:
            return True
        parts = name.split(".")
        if parts[0] in facts.global_names and facts.identifiers.issuperset(parts[1:]):
            return True
    return False


def reaches_module(facts: FileFacts, module: str) -> bool:
    """Whether LibCST may name some node ``module`` or a name under it (``numpy`` for
    `from numpy import zeros`), through an import or a global non-import binding."""
    prefix = module + "."
    if module in facts.qualified or any(q.startswith(prefix) for q in facts.qualified):
        return True
    head = module.partition(".")[0]
    return head in facts.global_names and facts.identifiers.issuperset(module.split(".")[1:])


def resolve(bindings: Mapping[str, frozenset[str]], node: ast.AST) -> set[str]:
    """What ``FileFacts.resolve`` gives, from ``bindings`` alone."""
    name = dotted(node)
    if name is None:
        return set()
    head, _, rest = name.partition(".")
    return {f"{base}.{rest}" if rest else base for base in bindings.get(head, ())}


def _imports(tree: ast.Module) -> tuple[dict[str, set[str]], set[str]]:
    """Local name → every dotted name an import binds it to (`try: from a import x` / `except
    ImportError: from b import x` gives both), and every module or object imported."""
    names: dict[str, set[str]] = {}
    imported: set[str] = set()
    for node in nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                imported.add(alias.name)
                if alias.asname:
                    names.setdefault(alias.asname, set()).add(alias.name)
                else:
                    head = alias.name.split(".", 1)[0]
                    names.setdefault(head, set()).add(head)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module)
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                imported.add(full)
                names.setdefault(alias.asname or alias.name, set()).add(full)
    return names, imported


def facts_of(tree: ast.Module, text: str, profile: TrainingProfile | None = None) -> FileFacts:
    """The facts of ``tree``, parsed from ``text``."""
    identifiers: set[str] = set()
    calls: set[str] = set()
    strings: set[str] = set()
    imported: set[str] = set()
    assigned: dict[str, list[ast.expr]] = {}
    loops = slices = subscripts = 0
    imports, qualified = _imports(tree)
    global_names = _global_bindings(tree, text)
    for name in global_names:
        imports.setdefault(name, set()).add(name)
    add = identifiers.add
    for node in nodes(tree):
        kind = type(node)
        if kind is ast.Name:
            add(node.id)
        elif kind is ast.Attribute:
            add(node.attr)
            parts = [node.attr]
            value = node.value
            while type(value) is ast.Attribute:
                parts.append(value.attr)
                value = value.value
            if type(value) is ast.Name and value.id in imports:
                rest = ".".join(reversed(parts))
                qualified.update(f"{base}.{rest}" for base in imports[value.id])
        elif kind is ast.Call:
            func = node.func
            if type(func) is ast.Attribute:
                calls.add(func.attr)
            elif type(func) is ast.Name:
                calls.add(func.id)
        elif kind is ast.Constant:
            if type(node.value) is str:
                strings.add(node.value)
        elif kind is ast.Assign:
            for target in node.targets:
                if type(target) is ast.Name:
                    assigned.setdefault(target.id, []).append(node.value)
        elif kind is ast.AnnAssign:
            if node.value is not None and type(node.target) is ast.Name:
                assigned.setdefault(node.target.id, []).append(node.value)
        elif kind is ast.Subscript:
            subscripts += 1
            if type(node.slice) is ast.Slice or (
                type(node.slice) is ast.Tuple and any(type(e) is ast.Slice for e in node.slice.elts)
            ):
                slices += 1
        elif kind in (ast.For, ast.AsyncFor, ast.While, ast.comprehension):
            loops += 1
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            add(node.name)
        elif kind is ast.arg:
            add(node.arg)
        elif kind is ast.keyword:
            if node.arg:
                add(node.arg)
        elif kind in (ast.Import, ast.ImportFrom):
            if kind is ast.ImportFrom and node.module:
                identifiers.update(node.module.split("."))
            for alias in node.names:
                identifiers.update(alias.name.split("."))
                if alias.asname:
                    add(alias.asname)
                imported.add(alias.asname or alias.name.split(".", 1)[0])
        elif kind in (ast.Global, ast.Nonlocal):
            identifiers.update(node.names)
        elif kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar):
            if node.name:
                add(node.name)
    if profile is None:
        profile = profile_of(tree, text)
    return FileFacts(
        text=text,
        tree=tree,
        profile=profile,
        identifiers=frozenset(identifiers),
        calls=frozenset(calls),
        qualified=frozenset(qualified),
        imported=frozenset(imported),
        bindings={name: frozenset(bases) for name, bases in imports.items()},
        global_names=global_names,
        assigned={name: tuple(values) for name, values in assigned.items()},
        strings=frozenset(strings),
        loops=loops,
        slices=slices,
        subscripts=subscripts,
    )


def facts_of_text(text: str, profile: TrainingProfile | None = None) -> FileFacts | None:
    """The facts of ``text``; None when Python cannot parse it (every pass is then a candidate,
    and LibCST reports the error)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return facts_of(tree, text, profile)
