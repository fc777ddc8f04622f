"""Migrating one file's text: parse once, run the selected passes to a fixed point, re-parse."""

from __future__ import annotations

import ast
import contextlib
import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.metadata import MetadataWrapper

from trncodemod.analysis.facts import FileFacts, facts_of, facts_of_text
from trncodemod.analysis.nodes import forget_children
from trncodemod.analysis.program import LONE, ModuleView, own_stops
from trncodemod.analysis.training import UNKNOWN, TrainingProfile
from trncodemod.config import Settings
from trncodemod.findings import Finding, Severity
from trncodemod.output.line_diff import LineMatcher
from trncodemod.passes import PYTORCH_SIGNS, Pass, PassRun, holds_no_node_twice
from trncodemod.pipeline import isolation
from trncodemod.pipeline.plugins import PluginError, PluginRewrite, plugin_runner
from trncodemod.pipeline.suppressions import find_suppressions
from trncodemod.pipeline.unused_suppressions import UnusedSuppression, unused_suppressions
from trncodemod.rewriting.codegen import module_code
from trncodemod.rules import all_passes, all_rules
from trncodemod.selection import enabled_codes
from trncodemod.targets import load_target

# ruff loops to convergence with a cap of 100; our passes converge in two rounds (the second one
# proves nothing is left), so a small cap turns a non-converging pass into a reported bug quickly.
MAX_ROUNDS = 5
# Whether passes are asked `Pass.candidate` before they run; off only to prove it changes nothing.
FIRST_STAGE = True


class MigrationError(Exception):
    """The file could not be migrated; ``line`` and ``column`` are 1-based when known."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Migration:
    text: str
    findings: tuple[Finding, ...]
    passes_run: tuple[str, ...]
    profile: TrainingProfile = UNKNOWN


@functools.lru_cache(maxsize=16)
def _diff(old: str, new: str) -> tuple[list[str], list[str], list[tuple[str, int, int, int, int]]]:
    """The lines of ``old`` and ``new`` and the opcodes from one to the other, worked out once a
    pair: after a rewrite, each pass behind it asks about the same two versions, and so does the
    line map (49 diffs of 24 pairs on four training modules, 5 % of their run). Shared: callers
    must not change what it returns."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    return old_lines, new_lines, LineMatcher(old_lines, new_lines).get_opcodes()


def _line_map(new: str, old: str) -> Callable[[int], int]:
    """Map a 1-based line of ``new`` to the line of ``old`` it came from (or was inserted at).
    The lines of a changed block pair up in order (two adjacent lines rewritten by one pass stay
    two lines for the next, whose findings are anchored on them); lines past the old block's end
    go to its last line."""
    blocks = _diff(old, new)[2]

    def to_old(line: int) -> int:
        index = line - 1
        for _tag, i1, i2, j1, j2 in blocks:
            if j1 <= index < j2 or (j1 == j2 == index):
                return min(i1 + (index - j1), max(i1, i2 - 1)) + 1
        return line

    return to_old


_LINE_NOTE = re.compile(r"\(line (\d+)\)")


def _original_lines(message: str, to_original: Callable[[int], int]) -> str:
    """A message's "(line N)" notes, written by a pass about the tree it ran on (which earlier
    passes may have made longer), as lines of the file that was read."""
    return _LINE_NOTE.sub(lambda m: f"(line {to_original(int(m.group(1)))})", message)


_OFF_DEVICE = (
    " — not applied: every entry point that runs this module stops on the XLA device at {}; "
    "ported, it would crash where it runs on the CPU today"
)
_IN_A_TEST = " (in a test module, which is not a training program: not a blocker)"
_IMPORT_LINE = re.compile(r"\s*(import|from)\s")
_XLA_OPTIONAL = (
    " — not applied: this file imports torch_xla only under a guard, and the rewrite would "
    "import it at the top, making it required; make the change under the file's guard by hand"
)

_PUBLISHED = (
    " — not applied: importing the package {} loads this file, so every user of the package "
    "runs it, on CPUs and GPUs too, and this rewrite only tunes the port (speed, precision, "
    "logging, compiler flags) while it changes what they run; make it here under a check that "
    "the device is XLA (torch_xla imported under `try:` / `except ImportError:`) by hand, or, in "
    "a fork that trains on Trainium only, set `port-published = true` in [tool.trncodemod]"
)

# Passes whose rewrites tune a port that runs without them (speed, precision, logging, the
# compiler's flags), reported in a module of a published package (``_tunes``); the others make
# the training run on the device at all (its device and moves, CUDA-only calls, removed names,
# the order of the optimizer and the move, a `torch.compile` whose Inductor backend fails on
# XLA tensors), and are applied there too.
_TUNING = frozenset(
    {
        *("amp", "half-model", "float64", "optimizer", "checkpoint", "utilities"),
        *("compiler-flags", "device-loader", "scale-out", "buckets"),
        *("distribution-validation", "item-hoist", "host-sync", "cpu-fallback", "recompilation"),
    }
)


def _tunes(name: str, findings: list) -> bool:
    """Whether a pass's rewrites of a module only tune the port: a tuning pass that fixed
    something, or the step marker's cut of an evaluation or sampling loop (TRN102; a training
    loop's cut, TRN101, is what lets the training run)."""
    fixed = [raw for raw in findings if raw.fixed]
    if not fixed:
        return False
    if name == "step-marker":
        return any(raw.rule.code == "TRN102" for raw in fixed)
    return name in _TUNING


def _touches(
    needles: tuple[str, ...], old: str, new: str, imports_seen: frozenset[str] = frozenset()
) -> bool:
    """Whether the lines that differ between ``old`` and ``new`` hold one of ``needles``.

    A pass acts only on code that holds one of its needles (its prefilter): when another pass's
    rewrite since this one last ran neither added nor removed such a line, running it again on
    the new tree repeats its previous verdict. A pass whose verdict hangs on another pass's
    rewrite elsewhere in the file names that pass in ``Pass.sees``. An import added or removed
    changes what the lines that did not change mean only where they spell a name it binds, or
    for a pass that names the module in ``Pass.imports_seen``. Tests hold the outputs and
    findings equal to running every pass again (tests/test_fixed_point.py)."""
    old_lines, new_lines, opcodes = _diff(old, new)
    lines = [
        line
        for tag, i1, i2, j1, j2 in opcodes
        if tag != "equal"
        for line in (*old_lines[i1:i2], *new_lines[j1:j2])
    ]
    # An added or removed import changes what its names resolve to on lines that did not change
    # (`import torch` added by one pass makes `torch.device(...)` another pass's business); on
    # lines that spell none of them, nothing resolves otherwise.
    imports = [line for line in lines if _IMPORT_LINE.match(line)]
    if imports:
        bound = _bound_by(imports)
        if bound is None or not bound.isdisjoint(imports_seen):
            return True
        unchanged = "\n".join(
            line for tag, _i1, _i2, j1, j2 in opcodes if tag == "equal" for line in new_lines[j1:j2]
        )
        if any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", unchanged) for name in bound):
            return True
    changed = "\n".join(lines)
    return any(needle in changed for needle in needles)


def _bound_by(imports: list[str]) -> set[str] | None:
    """The names the import lines ``imports`` bind, and the first part of each module they
    import (`torch_xla` of `import torch_xla.core.xla_model as xm`); None where one is not a
    whole statement (a line of a parenthesised import)."""
    bound: set[str] = set()
    for line in imports:
        try:
            statements = ast.parse(line.strip()).body
        except SyntaxError:
            return None
        for statement in statements:
            if not isinstance(statement, ast.Import | ast.ImportFrom):
                return None
            if isinstance(statement, ast.ImportFrom) and statement.module:
                bound.add(statement.module.partition(".")[0])
            for alias in statement.names:
                bound.add(alias.asname or alias.name.partition(".")[0])
                if isinstance(statement, ast.Import):
                    bound.add(alias.name.partition(".")[0])
    return bound


def active_passes(settings: Settings) -> tuple[tuple[type[Pass], ...], frozenset[str]]:
    target = load_target(settings.target)
    enabled = enabled_codes(settings.select, settings.ignore)
    passes = tuple(
        p
        for p in all_passes()
        if p.applies_to(target) and any(rule.code in enabled for rule in p.rules)
    )
    return passes, enabled


def migrate_text(text: str, path: str, settings: Settings, program: ModuleView = LONE) -> Migration:
    """Run the selected passes over ``text`` until nothing changes; raises MigrationError.
    ``program``: what the program the file belongs to says about it (its kind of training
    comes from the entry points that reach it)."""
    forget_children()  # the nodes of the file before: none of this one's
    # Limits first, before anything reads more than the text: a file with no sign of PyTorch is
    # parsed by nothing (unless a plugin runs on it), and code too large for LibCST is refused.
    torch = any(sign in text for sign in PYTORCH_SIGNS)
    if torch or settings.plugins:
        _refuse_too_large(text, settings.max_file_bytes)
    elif _too_large(text, settings.max_file_bytes):
        return Migration(text, (), ())  # nothing to migrate; too large to look for suppressions
    target = load_target(settings.target)
    passes, enabled = active_passes(settings)
    code = text
    wrapper: MetadataWrapper | None = None
    to_original: Callable[[int], int] = lambda line: line  # noqa: E731
    # The other way, for what the program says in the coordinates of the text given (a host
    # read a step reaches here): kept only where the program says something about the file.
    from_original: Callable[[int], int] = lambda line: line  # noqa: E731
    located = program.locates_lines
    fixes: list[Finding] = []
    # What each pass leaves for a person, from its first run: a rerun sees the pass's own rewrite
    # and would no longer recognise what it reported about the code it rewrote.
    open_findings: dict[str, list[Finding]] = {}
    ran: list[str] = []
    original_suppressions = find_suppressions(text)
    used_suppressions: set[tuple[int, str]] = set()
    # A pass runs again only on a tree it has not seen: after the last rewrite of a round, the
    # passes behind it already saw the final tree, and the round that proves nothing is left
    # runs only the passes in front of that rewrite (and the rewriting pass itself).
    version = 0
    parsed = ""  # the last code LibCST parsed
    versions = [text]  # the code at each version
    made_by = [""]  # the pass whose rewrite made each version
    seen: dict[str, int] = {}
    # Of the text as given: what the passes add (a device loader, a step marker) does not change
    # what kind of training the file does.
    first = _first_stage(text) if torch else None
    profile = program.kind_of(first.profile if first is not None else UNKNOWN)
    if path.endswith(".ipynb") and not profile.is_entry_script:
        # A notebook's kernel runs its cells top to bottom: a script, whatever its top level
        # calls (a `train()` defined in one cell and called in the next).
        profile = replace(profile, is_entry_script=True)
    if first is not None and first.profile != profile:
        first = replace(first, profile=profile)
    # A module that keeps torch_xla optional keeps it so: a rewrite that would import it at the
    # top (and so make it required) is reported instead (diffusers' pipelines guard it).
    xla_optional = first is not None and first.xla_optional
    # Every entry point that runs the module stops on the XLA device (a sparse product, an RNN
    # on a PackedSequence): no rewrite that would move it there.
    stops = program.off_device if target.is_xla else ()
    if target.is_xla and program == LONE and first is not None:
        stops = own_stops(text, first.profile.trains)
    facts: dict[int, FileFacts | None] = {0: first}  # by version, read when first asked
    rewritten_tree: cst.Module | None = None  # the tree of ``code``, a pass's rewrite
    for _round in range(MAX_ROUNDS):
        if all(seen.get(p.name) == version for p in passes):
            break
        for pass_cls in passes:
            last = seen.get(pass_cls.name)
            if last == version:
                continue
            seen[pass_cls.name] = version
            asked = pass_cls.asked_by(program)
            if not asked and not pass_cls.may_match(code):
                continue
            if version not in facts:
                facts[version] = facts_of_text(code, profile)
            known = facts[version]
            if (
                FIRST_STAGE
                and known is not None
                and not pass_cls.candidate(known, target)
                and not asked
            ):
                continue
            if (
                last is not None
                and not pass_cls.sees.intersection(made_by[last + 1 :])
                and not _touches(pass_cls.needles, versions[last], code, pass_cls.imports_seen)
            ):
                continue
            if wrapper is None:
                # The rewritten tree, where it holds no node twice (one reused by a rewrite,
                # which metadata keyed by node cannot tell apart); else the tree of the
                # rewritten code, parsed (natively: faster than the wrapper's copy).
                if version == 0:
                    tree = _parse(code, known, settings)
                    parsed = code
                elif rewritten_tree is not None and holds_no_node_twice(rewritten_tree):
                    tree = rewritten_tree
                else:
                    tree, parsed = _reparse(code), code
                rewritten_tree = None
                wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)
            suppressions = find_suppressions(code)
            run = PassRun(
                target,
                settings,
                enabled,
                suppressions,
                profile,
                known,
                program,
                from_original,
                to_original,
            )
            instance = pass_cls(CodemodContext(filename=path), run)
            try:
                new_module = instance.transform_with(wrapper)
            except RecursionError:  # visitors recurse once per level of nesting
                raise MigrationError(
                    f"too deeply nested to migrate (pass {pass_cls.name} ran out of stack)"
                ) from None
            except Exception as err:  # a pass bug must not take the other files down
                raise MigrationError(
                    f"internal error in pass {pass_cls.name}: {type(err).__name__}: {err}"
                ) from err
            rewritten: FileFacts | None = None  # of the pass's rewrite, where read here
            if (
                xla_optional
                and new_module is not wrapper.module
                and any(raw.fixed for raw in instance.findings)
            ):
                rewritten = facts_of_text(new_module.code, profile)
            if rewritten is not None and rewritten.xla_at_top:
                new_module, rewritten = wrapper.module, None
                instance.findings = [
                    replace(raw, message=raw.message + _XLA_OPTIONAL, fixed=False)
                    if raw.fixed
                    else raw
                    for raw in instance.findings
                ]
            elif (
                program.published
                and not settings.port_published
                and _tunes(pass_cls.name, instance.findings)
            ):
                # Importing a package the repository publishes loads the module: its users run
                # it on CPUs and GPUs, where a rewrite that only tunes the port (a sampling
                # loop's cut that imports torch_xla, a compiler flag set on import, an autocast
                # or a dtype changed) changes or breaks what they run. What the training needs
                # to run on the device at all (its device, the training step's cut) is applied.
                new_module, rewritten = wrapper.module, None
                note = _PUBLISHED.format(program.published)
                instance.findings = [
                    replace(raw, message=raw.message + note, fixed=False) if raw.fixed else raw
                    for raw in instance.findings
                ]
            elif stops and any(raw.fixed for raw in instance.findings):
                # Ported, the program would stop on the device where it runs on the CPU today:
                # the module is left as it is, each rewrite reported (TRN028/TRN029 say why).
                new_module, rewritten = wrapper.module, None
                note = _OFF_DEVICE.format(stops[0]) + (
                    f" (and {len(stops) - 1} more)" if len(stops) > 1 else ""
                )
                instance.findings = [
                    replace(raw, message=raw.message + note, fixed=False) if raw.fixed else raw
                    for raw in instance.findings
                ]
            used_suppressions |= suppressions.hits_in(original_suppressions, to_original)
            if pass_cls.name not in ran:
                ran.append(pass_cls.name)
            found = [
                replace(
                    Finding.from_rule(
                        raw.rule,
                        path,
                        to_original(raw.line),
                        raw.column,
                        _original_lines(raw.message, to_original),
                        raw.fixed,
                    ),
                    related=raw.related,
                    severity=raw.severity or raw.rule.severity,
                )
                for raw in instance.findings
            ]
            fixes.extend(finding for finding in found if finding.fixed)
            open_findings.setdefault(pass_cls.name, [x for x in found if not x.fixed])
            if new_module is wrapper.module or not any(raw.fixed for raw in instance.findings):
                # A pass changes the code only with a fixed finding to show for it (the first
                # stage's tests hold every pass to that), so a run without one needs no codegen.
                continue
            new_code = module_code(new_module) if rewritten is None else rewritten.text
            if new_code != code:
                step = _line_map(new_code, code)
                to_original = (lambda f, g: lambda line: f(g(line)))(to_original, step)
                if located:
                    ahead = _line_map(code, new_code)  # a line of the old code -> of the new
                    from_original = (lambda f, g: lambda line: g(f(line)))(from_original, ahead)
                code, wrapper = new_code, None
                rewritten_tree = new_module if rewritten is None else None
                version += 1
                if rewritten is not None:
                    facts[version] = rewritten
                versions.append(code)
                made_by.append(pass_cls.name)
    else:
        if any(seen.get(p.name) != version for p in passes):
            raise MigrationError(
                f"passes did not reach a fixed point in {MAX_ROUNDS} rounds (a bug)"
            )
    findings = fixes + [x for left in open_findings.values() for x in left]
    if program.is_test:
        # A test is not a training program (its CPU reference run is deliberate): what would
        # keep a program off the accelerator is a warning there, never a blocker.
        findings = [
            replace(f, severity=Severity.WARNING, message=f"{f.message}{_IN_A_TEST}")
            if f.severity is Severity.BLOCKER
            else f
            for f in findings
        ]
    if UnusedSuppression.code in enabled:
        findings.extend(
            unused_suppressions(
                path,
                original_suppressions,
                used_suppressions,
                [rule.code for rule in all_rules()],
                [r.code for p in all_passes() if p.applies_to(target) for r in p.rules],
                enabled,
            )
        )
    if settings.plugins:
        code = _run_plugins(code, text, path, settings, findings, to_original)
    if code != text and code != parsed:  # a pass that ran after the last rewrite parsed it
        try:
            cst.parse_module(code)
        except cst.ParserSyntaxError as err:
            raise MigrationError(
                f"internal error: rewritten code does not parse: {err.message}"
            ) from None
    return Migration(code, tuple(sorted(set(findings))), tuple(ran), profile)


def _run_plugins(
    code: str,
    text: str,
    path: str,
    settings: Settings,
    findings: list[Finding],
    to_original: Callable[[int], int],
) -> str:
    """User plugins run once, after the built-in passes reached their fixed point."""
    try:
        new_code = plugin_runner(settings.plugins)(code, path)
    except PluginError as err:
        raise MigrationError(str(err)) from None
    if new_code != code:
        first = next(
            (
                tag
                for tag in LineMatcher(code.split("\n"), new_code.split("\n")).get_opcodes()
                if tag[0] != "equal"
            ),
            None,
        )
        line = to_original(first[1] + 1) if first else 1
        specs = ", ".join(settings.plugins)
        findings.append(
            Finding.from_rule(PluginRewrite, path, line, 1, f"changed by plugin {specs}", True)
        )
    return new_code


def _too_large(text: str, max_bytes: int) -> bool:
    # A character is one to four bytes: the exact count is needed only near the limit.
    return bool(max_bytes) and len(text) > max_bytes // 4 and _utf8_size(text) > max_bytes


def _utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _refuse_too_large(text: str, max_bytes: int) -> None:
    if _too_large(text, max_bytes):
        raise MigrationError(
            f"too large to migrate: {_utf8_size(text):,} bytes of code, over `max-file-bytes` "
            f"({max_bytes:,}); LibCST takes about 20 s and 0.7 GB a MB to parse and resolve "
            "names, and the passes minutes more: raise the limit in [tool.trncodemod] (0: none) "
            "to migrate it anyway"
        )


def _first_stage(text: str) -> FileFacts | None:
    """The facts of ``text`` from Python's ``ast``; None when Python cannot parse it (every pass
    is then a candidate, and LibCST reports the error or reads newer syntax)."""
    try:
        tree = ast.parse(text)
    except (RecursionError, MemoryError):
        # CPython guards its own parser (a stack of 6000 rules, 3000 levels of tree); LibCST's
        # needs gigabytes long before that (5,000 nested `lambda:`, 40 KB: 4.75 GB, then a crash).
        raise MigrationError("too deeply nested to parse (Python's own parser gives up)") from None
    except (SyntaxError, ValueError):
        return None
    if _deeper_than(tree, MAX_NESTING):
        raise MigrationError(
            f"too deeply nested to migrate: more than {MAX_NESTING} levels of syntax (LibCST's "
            "parser takes memory that grows with the square of the nesting)"
        )
    return facts_of(tree, text)


# LibCST's parser needs memory that grows with the square of an expression's nesting: 31 MB for
# 200 nested `lambda:`, 211 MB for 1,000, 735 MB for 100 lines of 190 (measured with LibCST 1.9).
# Real code stays far below: over the 4,221 modules of CPython 3.11's library and a virtual
# environment, 99.9 % are under 42 levels of `ast` nodes, the deepest 87 (idna's table, a sum of
# 80 calls).
MAX_NESTING = 100


def _deeper_than(tree: ast.AST, limit: int) -> bool:
    """Whether ``tree`` has more than ``limit`` levels of nodes, level by level (no recursion)."""
    level = [tree]
    for _ in range(limit):
        level = [child for node in level for child in ast.iter_child_nodes(node)]
        if not level:
            return False
    return True


# LibCST's native parser overflows the C stack on a few thousand nested brackets: a segfault that
# kills the worker, which no `except` can catch. CPython's tokenizer refuses more than 200 levels
# (MAXLEVEL in Parser/tokenizer.h), so such a file is never valid Python anyway. Counting brackets
# over-estimates (strings, comments); CPython settles the doubtful files before LibCST sees them.
MAX_BRACKET_DEPTH = 200
_BRACKET_STEP = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
_NOT_BRACKETS = re.compile(r"[^()\[\]{}]+")


def _deepest_brackets(code: str) -> int:
    steps = map(_BRACKET_STEP.__getitem__, _NOT_BRACKETS.sub("", code))
    return max(itertools.accumulate(steps), default=0)


def _check_with_cpython(code: str) -> None:
    """Raise CPython's own syntax error, which points at the offending token (LibCST's points
    where it gave up), or refuse nesting too deep for the parsers."""
    try:
        ast.parse(code)
    except SyntaxError as py_err:
        message = f"syntax error: {py_err.msg}"
        word = _reserved_name(py_err)
        line = (py_err.text or "")[max((py_err.offset or 1) - 1, 0) :]
        if word == "async" and re.match(r"async\s*=", line) and ".cuda(" in (py_err.text or ""):
            # torch 0.4 renamed `.cuda(async=...)` and `.to(..., async=...)` to `non_blocking`.
            message += (
                ": `async` is a reserved word since Python 3.7, and this file (written for an "
                "older Python and torch) passes it to `.cuda()`; torch 0.4 renamed it: write "
                "`non_blocking=True`"
            )
        elif word:
            message += (
                f": `{word}` is a reserved word since Python 3.7, and this file (written for an "
                f"older Python) uses it as a name; torch 2.9 needs Python 3.9 or later, so rename "
                f"it (e.g. `{word}_`)"
            )
        raise MigrationError(message, py_err.lineno, py_err.offset) from None
    except (RecursionError, MemoryError):
        raise MigrationError("too deeply nested to parse") from None
    except ValueError:
        pass  # e.g. a NUL byte; LibCST's message is reported instead


def _reserved_name(error: SyntaxError) -> str:
    """`async` or `await` where CPython stopped, used as a name (`def f(async=True)`,
    `g(async=True)`, `self.async = x`): valid before Python 3.7."""
    text, offset = error.text or "", (error.offset or 0) - 1
    found = re.match(r"(async|await)\b\s*(=|,|\)|\.|$)", text[max(offset, 0) :])
    preceded = text[:offset].rstrip().endswith((".", "(", ",", "def"))
    return found.group(1) if found and (found.group(2) in ("=", ",", ")") or preceded) else ""


def _reparse(code: str) -> cst.Module:
    try:
        return cst.parse_module(code)
    except (cst.ParserSyntaxError, RecursionError) as err:
        raise MigrationError(f"internal error: rewritten code does not parse: {err}") from None


def _try_parse(code: str) -> None:
    with contextlib.suppress(cst.ParserSyntaxError, RecursionError):  # the real parse says so
        cst.parse_module(code)


def _parse(code: str, known: FileFacts | None, settings: Settings) -> cst.Module:
    """LibCST's tree of ``code``, whose facts (``known``) passed the first stage's limits."""
    if known is None:
        # Python could not read it, so its nesting is unknown: LibCST may still crash on it or
        # take all the memory. In a worker that is the file's error (`engine`); in the run's own
        # process it would end the run, so the parse is first tried in a child process.
        if _deepest_brackets(code) > MAX_BRACKET_DEPTH:
            _check_with_cpython(code)
        if not isolation.in_worker:
            _, death = isolation.run_alone(_try_parse, (code,), settings.max_worker_memory)
            if death is not None:
                raise MigrationError(f"LibCST's parser {death} on this file")
    try:
        module = cst.parse_module(code)
    except cst.ParserSyntaxError as err:
        _check_with_cpython(code)
        raise MigrationError(
            f"syntax error: {err.message}", err.raw_line, err.raw_column + 1
        ) from None
    except RecursionError:
        raise MigrationError("too deeply nested to parse") from None
    if module.default_indent.strip(" \t"):
        # LibCST takes the first indentation as the default for new code and refuses to parse
        # snippets with one holding a form feed (`Module.config_for_parsing`).
        raise MigrationError(
            f"indentation {module.default_indent!r} is not spaces or tabs; LibCST cannot add code"
        )
    return module
