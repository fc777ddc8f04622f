"""Settings: ``[tool.trncodemod]`` in the nearest ``pyproject.toml``, overridden by the command line.

An unknown key or a bad value is an error that names the file and the key, never a silent default.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from trncodemod.pipeline.files import read_regular
from trncodemod.targets import DEFAULT_TARGET, target_names

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

OPTIMIZER_POLICIES = ("keep", "syncfree", "fp32-states")
# Where a gradient-accumulation loop cuts the graph: once per optimizer step (fewer graph
# executions, one graph that holds every micro-batch), or after every micro-batch (smaller
# graphs, micro-batches + 1 executions per optimizer step).
ACCUMULATION_CUTS = ("optimizer-step", "micro-batch")


class ConfigError(Exception):
    """A configuration file or option the tool cannot use; the message names where and why."""


@dataclass(frozen=True)
class Settings:
    """Everything a run needs to know; plain values only, so it pickles to worker processes."""

    target: str = DEFAULT_TARGET
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    log_interval: int = 10
    buckets: tuple[int, ...] = ()
    bucket_multiple: int = 64
    optimizer: str = "keep"
    # Make a single-device training script data parallel over every NeuronCore (docs/scale-out.md); with `scale_lr`, its learning rate grows with the global batch.
    scale_out: bool = False
    scale_lr: bool = False
    accumulation_cut: str = ACCUMULATION_CUTS[0]
    # Port the modules of a package the repository publishes too (a fork that trains on
    # Trainium only): by default their rewrites are reported, since the package's users run them
    # on CPUs and GPUs.
    port_published: bool = False
    plugins: tuple[str, ...] = ()  # `module:attr` or `file.py:attr`, run after the passes
    # Where `plugins` came from: "command line", or the configuration file that named them.
    plugins_source: str = "command line"
    # Plugins the configuration names but that were not loaded: running code a scanned
    # repository names takes `--allow-config-plugins` (docs/trust-model.md).
    withheld_plugins: tuple[str, ...] = ()
    # Code over this many bytes (UTF-8) is not parsed: LibCST takes about 20 s and 0.7 GB a MB to
    # parse and resolve names, and the passes minutes more. 0: no limit.
    max_file_bytes: int = 1_000_000
    # The address space of each process that parses a file (workers, and the child a doubtful
    # parse runs in), in MiB: runaway memory is then that file's error. 0: no limit.
    max_worker_memory: int = 4096
    # Limits the scanned repository's own configuration tried to lower or switch off, ignored:
    # only the command line, `--config` or a campaign spec may (README, "Trust model").
    refused_limits: tuple[str, ...] = ()
    # Where the configuration was found; patterns in `exclude` are relative to it.
    root: Path = field(default_factory=Path.cwd)
    source: str = "defaults"

    def with_overrides(self, **overrides: object) -> Settings:
        given = {key: value for key, value in overrides.items() if value is not None}
        if "plugins" in given:  # the user's own choice replaces whatever the file named
            given |= {"plugins_source": "command line", "withheld_plugins": ()}
        return validate(replace(self, **given), "command line")

    def plugin_notices(self) -> list[str]:
        """What `check`, `apply` and `pr` say on stderr about plugins: which run, which not."""
        lines = []
        if self.plugins:
            lines.append(f"plugins loaded ({self.plugins_source}): {', '.join(self.plugins)}")
        if self.withheld_plugins:
            lines.append(
                f"warning: {self.source} names plugins that were NOT loaded: "
                f"{', '.join(self.withheld_plugins)}; they would run that repository's code. "
                "Pass --allow-config-plugins to run them (docs/trust-model.md)."
            )
        if self.refused_limits:
            lines.append(
                f"warning: {self.source} tries to loosen {', '.join(self.refused_limits)}; "
                "ignored: a repository's own configuration may only tighten these limits "
                "(the command line's --config may set them)."
            )
        return lines


# key in pyproject -> (Settings field, converter)
def _codes(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("expected a list of rule codes")
    return tuple(v.strip().upper() for v in value)


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("expected a list of strings")
    return tuple(value)


def _positive_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TypeError("expected a positive integer")
    return value


def _non_negative_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError("expected an integer >= 0")
    return value


def _buckets(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise TypeError("expected a non-empty list of positive integers")
    sizes = tuple(_positive_int(v) for v in value)
    if list(sizes) != sorted(set(sizes)):
        raise TypeError("expected strictly increasing bucket sizes")
    return sizes


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError("expected true or false")
    return value


def _choice(choices: Iterable[str]):
    allowed = tuple(choices)

    def convert(value: object) -> str:
        if value not in allowed:
            raise TypeError(f"expected one of {', '.join(allowed)}")
        return value  # type: ignore[return-value]

    return convert


KEYS = {
    "target": ("target", _choice(target_names())),
    "select": ("select", _codes),
    "ignore": ("ignore", _codes),
    "exclude": ("exclude", _strings),
    "respect-gitignore": ("respect_gitignore", _bool),
    "log-interval": ("log_interval", _positive_int),
    "buckets": ("buckets", _buckets),
    "bucket-multiple": ("bucket_multiple", _positive_int),
    "optimizer": ("optimizer", _choice(OPTIMIZER_POLICIES)),
    "scale-out": ("scale_out", _bool),
    "scale-lr": ("scale_lr", _bool),
    "accumulation-cut": ("accumulation_cut", _choice(ACCUMULATION_CUTS)),
    "port-published": ("port_published", _bool),
    "plugins": ("plugins", _strings),
    "max-file-bytes": ("max_file_bytes", _non_negative_int),
    "max-worker-memory": ("max_worker_memory", _non_negative_int),
}


def validate(settings: Settings, where: str) -> Settings:
    """Check values that can come from either the file or the command line."""
    for key, (attr, convert) in KEYS.items():
        value = getattr(settings, attr)
        if isinstance(value, tuple):
            value = list(value)
        if attr in ("select",) and not value:
            raise ConfigError(f"{where}: `{key}` selects no rule")
        if attr in ("ignore", "exclude", "buckets", "plugins") and not value:
            continue
        try:
            convert(value)
        except TypeError as err:
            raise ConfigError(f"{where}: bad value for `{key}`: {value!r} ({err})") from None
    return settings


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start`` that has a [tool.trncodemod] table."""
    # realpath, unlike Path.resolve on Python 3.11, does not raise on a symlink loop.
    start = Path(os.path.realpath(start))
    for folder in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(read_regular(candidate).decode("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
                raise ConfigError(f"{candidate}: cannot read: {err}") from None
            except RecursionError:  # arrays or tables nested thousands deep: tomllib recurses
                raise ConfigError(f"{candidate}: cannot read: TOML nested too deeply") from None
            if "trncodemod" in data.get("tool", {}):
                return candidate
    return None


def project_plugin(spec: str, config: Path) -> str:
    """A plugin named in ``config``: a ``file.py`` path resolves against the configuration's folder
    (never the current one) and, symlinks resolved, must stay inside it."""
    location, sep, attr = spec.rpartition(":")
    if not sep or not location.endswith(".py"):
        return spec  # `module:attr`: imported from the environment the tool runs in
    project = Path(os.path.realpath(config.parent))
    path = Path(os.path.realpath(project / location))
    if path != project and project not in path.parents:
        raise ConfigError(
            f"{config}: plugin {spec!r} lies outside the project ({path} is not under {project})"
        )
    return f"{path}:{attr}"


def table_values(table: dict, where: str, name: str) -> dict[str, object]:
    """Settings fields from a table of configuration keys (``[tool.trncodemod]``, or a campaign
    spec's); an unknown key or a bad value is a ConfigError naming ``where`` and the key."""
    values: dict[str, object] = {}
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(
                f"{where}: unknown key `{key}` in {name}; known keys: {', '.join(KEYS)}"
            )
        attr, convert = KEYS[key]
        try:
            values[attr] = convert(value)
        except TypeError as err:
            raise ConfigError(f"{where}: bad value for `{key}`: {value!r} ({err})") from None
    if "buckets" in values and "bucket_multiple" in values:
        raise ConfigError(f"{where}: set `buckets` or `bucket-multiple`, not both")
    return values


# The limits that keep hostile input bounded: the defaults of Settings are the loosest a
# scanned repository's own configuration may ask for (0 switches one off).
LIMITS = {"max-file-bytes": "max_file_bytes", "max-worker-memory": "max_worker_memory"}


def only_tighter(values: dict[str, object]) -> tuple[dict[str, object], tuple[str, ...]]:
    """``values`` without the limits it would loosen past the defaults (or switch off), and
    the keys of those, as the scanned repository's configuration may set them."""
    refused = []
    kept = dict(values)
    for key, attr in LIMITS.items():
        value = kept.get(attr)
        if value is not None and not 0 < value <= getattr(Settings, attr):  # type: ignore[operator]
            refused.append(f"`{key} = {value}`")
            del kept[attr]
    return kept, tuple(refused)


def load_settings(
    start: Path,
    config_file: Path | None = None,
    allow_plugins: bool = False,
    from_user: bool | None = None,
) -> Settings:
    """Settings from the nearest configuration (or ``config_file``). Plugins it names are kept
    only with ``allow_plugins``, else listed in ``withheld_plugins``. A configuration not
    ``from_user`` (default: unless it is ``config_file``, the user's `--config`) is the scanned
    repository's: it may only tighten the limits (``only_tighter``)."""
    from_user = config_file is not None if from_user is None else from_user
    path = config_file or find_pyproject(start)
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(read_regular(path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{path}: cannot read: {err}") from None
    except RecursionError:  # arrays or tables nested thousands deep: tomllib recurses
        raise ConfigError(f"{path}: cannot read: TOML nested too deeply") from None
    table = data.get("tool", {}).get("trncodemod")
    if table is None:
        raise ConfigError(f"{path}: no [tool.trncodemod] table")
    values = table_values(table, str(path), "[tool.trncodemod]")
    if not from_user:
        values, values["refused_limits"] = only_tighter(values)
    if "plugins" in values:
        named = values.pop("plugins")
        values["plugins_source"] = str(path)
        if allow_plugins:
            values["plugins"] = tuple(project_plugin(spec, path) for spec in named)
        else:
            values["withheld_plugins"] = named
    return Settings(root=path.parent, source=str(path), **values)
