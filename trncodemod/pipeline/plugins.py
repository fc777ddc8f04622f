"""User plugins: LibCST codemods and Bowler queries that run after the built-in passes, in the
same pipeline, so their changes land in the same patch, review and pull request.

A plugin is named ``module:attr`` or ``path/to/file.py:attr`` (``--plugin``, or ``plugins = [...]``
in ``[tool.trncodemod]``). ``attr`` is one of:

* a LibCST ``CodemodCommand`` subclass (built with a ``CodemodContext``),
* a LibCST ``CSTTransformer`` subclass (built with no arguments; metadata is resolved for it),
* a function ``(path: str) -> bowler.Query``, or a ``bowler.Query`` (its paths are ignored).

Bowler's parser (fissix) cannot read ``match``, ``except*``, PEP 695, PEP 701 f-strings,
parenthesised ``with`` or ``/`` parameters, and Bowler itself then skips the file with only a log
line. Here that is an error on that file (exit 2), never a silent skip.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.codemod import Codemod, CodemodContext
from libcst.metadata import MetadataWrapper

from trncodemod.findings import Rule, Safety, Severity
from trncodemod.passes import Pass


class PluginError(Exception):
    """A plugin that cannot be loaded or run on a file; the message says which and why."""


class PluginRewrite(Rule):
    """## What it does
    Marks a file changed by a user plugin (`--plugin` or `plugins = [...]`), so that plugin
    changes are listed beside the built-in rules in reports, reviews and pull requests.

    ## Why
    Teams bring their own rewrites (internal helpers, house style) and want one patch and one
    review for the whole migration, as LibCST codemods and Bowler queries allow on their own.

    ## Example
    ```toml
    [tool.trncodemod]
    plugins = ["examples/plugins/perf_counter.py:UsePerfCounter"]
    ```

    ## Use instead
    Review the plugin's hunks like any `review`-class change.
    """

    code = "TRN900"
    name = "plugin-rewrite"
    summary = "a user plugin changed the file"
    safety = Safety.REVIEW
    severity = Severity.INFO
    sources = ("libcst-codemods", "bowler-docs")


class PluginChanges(Pass):
    """Not a pass the engine runs: the owner of TRN900 in the rule catalogue."""

    name = "plugins"
    rules = (PluginRewrite,)
    needles = ()


@dataclass(frozen=True)
class Plugin:
    spec: str
    kind: str  # "libcst-codemod" | "libcst-transformer" | "bowler"
    target: Any
    fingerprint: str  # hash of the plugin's source file, for the result cache

    def run(self, text: str, path: str) -> str:
        if self.kind == "bowler":
            return _run_bowler(self, text, path)
        try:
            module = cst.parse_module(text)
        except cst.ParserSyntaxError as err:
            raise PluginError(f"plugin {self.spec}: cannot parse: {err.message}") from None
        try:
            if self.kind == "libcst-codemod":
                result = self.target(CodemodContext(filename=path)).transform_module(module)
            else:
                result = MetadataWrapper(module).visit(self.target())
        except Exception as err:
            raise PluginError(f"plugin {self.spec} failed: {type(err).__name__}: {err}") from err
        return result.code


def _import(spec: str) -> tuple[Any, str]:
    location, sep, attr = spec.rpartition(":")
    if not sep or not location or not attr:
        raise PluginError(f"plugin {spec!r}: expected `module:attr` or `file.py:attr`")
    try:
        if location.endswith(".py"):
            path = Path(location).resolve()
            module_spec = importlib.util.spec_from_file_location(
                f"_trncodemod_plugin_{path.stem}", path
            )
            if module_spec is None or module_spec.loader is None:
                raise PluginError(f"plugin {spec!r}: cannot load {path}")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(location)
    except PluginError:
        raise
    except Exception as err:
        raise PluginError(f"plugin {spec!r}: cannot import: {type(err).__name__}: {err}") from None
    if not hasattr(module, attr):
        raise PluginError(f"plugin {spec!r}: {location} has no attribute {attr!r}")
    source = Path(getattr(module, "__file__", "") or "")
    digest = hashlib.sha256(source.read_bytes() if source.is_file() else spec.encode()).hexdigest()
    return getattr(module, attr), digest


@cache
def load_plugin(spec: str) -> Plugin:
    target, digest = _import(spec)
    if isinstance(target, type) and issubclass(target, Codemod):
        return Plugin(spec, "libcst-codemod", target, digest)
    if isinstance(target, type) and issubclass(target, cst.CSTTransformer):
        return Plugin(spec, "libcst-transformer", target, digest)
    from bowler import Query

    if isinstance(target, Query) or callable(target):
        return Plugin(spec, "bowler", target, digest)
    raise PluginError(
        f"plugin {spec!r}: not a LibCST CodemodCommand or CSTTransformer class, "
        "nor a bowler.Query or a function returning one"
    )


def _bowler_query(plugin: Plugin, path: str):
    from bowler import Query

    query = plugin.target if isinstance(plugin.target, Query) else plugin.target(path)
    if not isinstance(query, Query):
        raise PluginError(f"plugin {plugin.spec}: returned {type(query).__name__}, not a Query")
    return query


def _run_bowler(plugin: Plugin, text: str, path: str) -> str:
    from bowler.tool import BowlerTool

    query = _bowler_query(plugin, path)
    tool = BowlerTool(
        query.compile(),
        write=False,
        silent=True,
        interactive=False,
        options={"print_function": True},
    )
    failures: list[str] = []
    handler = _Collect(failures)
    logger = logging.getLogger("RefactoringTool")
    logger.addHandler(handler)
    try:
        source = text if text.endswith("\n") else text + "\n"
        tree = tool.refactor_string(source, path)
    except Exception as err:
        raise PluginError(f"plugin {plugin.spec} failed: {type(err).__name__}: {err}") from err
    finally:
        logger.removeHandler(handler)
    if tree is None:
        reason = failures[0] if failures else "fissix could not parse it"
        raise PluginError(
            f"Bowler plugin {plugin.spec} cannot read this file ({reason}); fissix does not "
            "support match, except*, PEP 695/701, parenthesised with or / parameters"
        )
    new = str(tree)
    return new if text.endswith("\n") else new[:-1]


class _Collect(logging.Handler):
    def __init__(self, sink: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(record.getMessage())


def plugin_runner(specs: tuple[str, ...]) -> Callable[[str, str], str]:
    plugins = [load_plugin(spec) for spec in specs]

    def run(text: str, path: str) -> str:
        for plugin in plugins:
            text = plugin.run(text, path)
        return text

    return run
