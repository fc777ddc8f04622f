"""Configuration: [tool.trncodemod] is read, validated, and overridden by the command line."""

from pathlib import Path

import pytest

from trncodemod.config import ConfigError, Settings, load_settings


def _pyproject(folder: Path, body: str) -> Path:
    path = folder / "pyproject.toml"
    path.write_text(f"[project]\nname = 'x'\n\n[tool.trncodemod]\n{body}\n")
    return path


def test_nearest_pyproject_with_a_trncodemod_table_is_used(tmp_path: Path) -> None:
    _pyproject(tmp_path, 'target = "xla-2.1"\nlog-interval = 50\nbuckets = [128, 256]')
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    settings = load_settings(tmp_path / "pkg" / "sub")
    assert (settings.target, settings.log_interval, settings.buckets) == ("xla-2.1", 50, (128, 256))
    assert settings.root == tmp_path


def test_no_configuration_means_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path).target == Settings().target == "xla-2.9"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('targt = "xla-2.9"', "unknown key `targt`"),
        ('target = "tpu"', "bad value for `target`"),
        ("log-interval = 0", "bad value for `log-interval`"),
        ("buckets = [256, 128]", "bad value for `buckets`"),
        ('optimizer = "fast"', "bad value for `optimizer`"),
        ("max-file-bytes = -1", "bad value for `max-file-bytes`"),
        ("buckets = [64]\nbucket-multiple = 8", "not both"),
        ('scale-out = "yes"', "bad value for `scale-out`"),
    ],
)
def test_bad_configuration_names_the_file_and_the_key(tmp_path: Path, body: str, message: str):
    path = _pyproject(tmp_path, body)
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path)
    assert message in str(info.value)
    assert str(path) in str(info.value)


def test_command_line_overrides_the_file(tmp_path: Path) -> None:
    _pyproject(tmp_path, 'target = "xla-2.1"')
    settings = load_settings(tmp_path).with_overrides(target="neuron", select=None)
    assert settings.target == "neuron"


def test_a_bad_command_line_value_is_an_error() -> None:
    with pytest.raises(ConfigError, match="command line"):
        Settings().with_overrides(log_interval=-1)


def test_scale_out_is_read_from_the_file_and_turned_on_by_the_flag(tmp_path: Path) -> None:
    _pyproject(tmp_path, "scale-out = true\nscale-lr = true")
    settings = load_settings(tmp_path)
    assert settings.scale_out and settings.scale_lr
    assert not Settings().scale_out and Settings().with_overrides(scale_out=True).scale_out


@pytest.mark.parametrize("table", ["[tool.trncodemod]\n", ""])
def test_a_pyproject_nested_thousands_deep_is_a_clear_error(tmp_path: Path, table: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "pyproject.toml").write_text(f"{table}x = {deep}\n")
    with pytest.raises(ConfigError, match="TOML nested too deeply"):
        load_settings(tmp_path)
