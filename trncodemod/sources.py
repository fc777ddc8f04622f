"""The public sources rules rest on (``data/sources.toml``), and how a rule's text cites them.

A rule names its sources by key (``Rule.sources``) and its documentation and messages cite them
inline as ``[key]`` or ``[key, key]``. ``trncodemod explain`` and ``docs/rules.md`` print each
cited source with its title and where to find it: a URL, or a measurement kept in this
repository (a script and the check it runs, or a test).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# `[xla-model]`, `[neuron-guide, xla-amp]`: keys are lowercase words joined by hyphens, so code
# such as `x[mask]` or `batch[-1]` is never read as a citation.
_KEY = r"[a-z0-9]+(?:-[a-z0-9]+)+"
CITATION = re.compile(rf"\[({_KEY}(?:, {_KEY})*)\]")


@dataclass(frozen=True)
class Source:
    key: str
    title: str
    url: str = ""
    script: str = ""  # a measurement: a file of this repository that makes it
    check: str = ""  # ... and the function of that script that measures this fact
    test: str = ""  # or a test of this repository that measures it

    @property
    def where(self) -> str:
        """The URL, or the command that repeats the measurement."""
        if self.url:
            return self.url
        if self.test:
            return f"pytest {self.test} (the XLA lane: torch 2.9.0 + torch-xla 2.9.0, XLA:CPU)"
        return f"PJRT_DEVICE=CPU python {self.script} {self.check}".rstrip()

    def markdown(self, root: str = "") -> str:
        """A Markdown link; ``root`` leads from the page to the repository's top folder."""
        if self.url:
            return f"[{self.title}]({self.url})"
        path = self.test or self.script
        command = f" `{self.where}`" if self.script else ""
        return f"{self.title}: [`{path}`]({root}{path}){command}"


@cache
def all_sources() -> dict[str, Source]:
    text = resources.files("trncodemod").joinpath("data/sources.toml").read_text("utf-8")
    return {key: Source(key=key, **fields) for key, fields in tomllib.loads(text).items()}


def cited_keys(text: str) -> list[str]:
    """The source keys ``text`` cites, in order, each once."""
    keys: list[str] = []
    for group in CITATION.findall(text):
        keys.extend(key for key in group.split(", ") if key not in keys)
    return keys


def link_citations(text: str, root: str = "") -> str:
    """``[key, key]`` → a Markdown link to each source (unknown keys are left as written)."""
    sources = all_sources()

    def links(match: re.Match[str]) -> str:
        keys = match.group(1).split(", ")
        if any(key not in sources for key in keys):
            return match.group(0)
        return ", ".join(_inline(sources[key], root) for key in keys)

    return CITATION.sub(links, text)


def cite_urls(text: str) -> str:
    """``[key, key]`` → where each source is (its URL, or the command that measures it)."""
    sources = all_sources()

    def where(match: re.Match[str]) -> str:
        keys = match.group(1).split(", ")
        if any(key not in sources for key in keys):
            return match.group(0)
        return " ".join(sources[key].where for key in keys)

    return CITATION.sub(where, text)


def _inline(source: Source, root: str) -> str:
    target = source.url or f"{root}{source.test or source.script}"
    return f"[{source.key}]({target})"
