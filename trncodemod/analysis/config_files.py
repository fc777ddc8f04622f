"""A repository's configuration files as values of the evaluator (``analysis.evaluate``).

A training script often reads what chooses where it trains from a JSON or YAML file the launch
names (`python train.py --config config_v1.json`, then `h = AttrDict(json.load(f))` and
`if h.num_gpus > 1:`). The evaluator reads such a file where its path is decided on the launch
path, and only then: a file of the repository (the reader the caller gives never leaves it),
small, with a name ending in `.json`, `.yaml` or `.yml`, parsed by `json` or by PyYAML's safe
loader (never a loader that builds objects). Each value it holds is a decided constant that
says where it was decided (`` `num_gpus` is 0 in config_v1.json ``).
"""

from __future__ import annotations

import json
import posixpath
import re

from trncodemod.analysis.abstract_values import Const, Dict, Seq, Unknown, Value, Why

MAX_BYTES = 64 * 1024  # a configuration file, not a data set
SUFFIXES = (".json", ".yaml", ".yml")
# absl's flag files (`--flagfile=config/CIFAR10.txt`): one option a line.
FLAG_FILE_SUFFIXES = (".txt", ".cfg", ".flags", ".flagfile")
# How a text read from a configuration file says where it came from (in its ``why``).
READ_FROM = "read from "


def config_path(folder: str, spelled: str, suffixes: tuple[str, ...] = SUFFIXES) -> str | None:
    """The repository path of ``spelled`` opened by a script launched in ``folder``; None where
    it names no configuration file (a name ending in one of ``suffixes``) inside the
    repository."""
    if not spelled.endswith(suffixes) or spelled.startswith(("/", "~")) or "\\" in spelled:
        return None
    joined = posixpath.normpath(posixpath.join(folder, spelled))
    if joined.startswith("../") or joined == ".." or posixpath.isabs(joined):
        return None
    return joined


def parse(path: str, text: str, at: str, loader: str) -> Value:
    """The data of the configuration file ``path`` as ``loader`` ("json" or "yaml") reads it,
    as the evaluator's values."""
    try:
        if loader == "json":
            data = json.loads(text)
        else:
            import yaml

            data = yaml.safe_load(text)
    except Exception as err:  # noqa: BLE001 - a file that does not parse is undecided, not fatal
        return Unknown(at=at, reason=f"`{path}` does not parse ({type(err).__name__})")
    return _value(data, path, text, "", 0)


def _value(
    data: object, path: str, text: str, key: str, depth: int, within: list | None = None
) -> Value:
    if depth > 16:
        return Unknown(reason=f"`{path}` nests too deep")
    if isinstance(data, dict):
        return Dict(
            items=tuple(
                (k, _value(v, path, text, k, depth + 1))
                for k, v in data.items()
                if isinstance(k, str)
            )
        )
    if isinstance(data, list):
        items = tuple(_value(v, path, text, key, depth + 1, data) for v in data)
        return Seq(items=items)
    if data is None or isinstance(data, (bool, int, float, str)):
        shown = json.dumps(data if within is None else within)  # `gpus` is [1]
        why = Why(path, _line_of(text, key), f"`{key or 'the value'}` is {shown} in {path}")
        return Const(value=data, why=(why,))
    return Unknown(reason=f"`{key}` in `{path}`")


def _line_of(text: str, key: str) -> int:
    """The first line that spells ``key`` as a key (JSON `"key":`, YAML `key:`); 1 if none."""
    if key:
        pattern = re.compile(
            rf"""^\s*(?:-\s*)?(?:"{re.escape(key)}"|'{re.escape(key)}'|{re.escape(key)})\s*:|"{re.escape(key)}"\s*:"""
        )
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                return number
    return 1
