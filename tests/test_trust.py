"""Pointing the tool at a repository runs none of that repository's code unless the user says so:
plugins its configuration names load only with `--allow-config-plugins`, resolve against that
configuration and stay inside its project, and every run says which plugins it loaded."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main
from trncodemod.config import ConfigError, load_settings

# A plugin that leaves a trace when imported, and renames `evaluate` when run.
PLUGIN = """\
import pathlib

import libcst as cst

pathlib.Path({marker!r}).write_text("imported")


class Rename(cst.CSTTransformer):
    def leave_Name(self, original_node, updated_node):
        if updated_node.value == "evaluate":
            return updated_node.with_changes(value={new_name!r})
        return updated_node
"""
SCRIPT = "import torch\n\ndef evaluate(model):\n    return model.cuda()\n"


def _repository(tmp_path: Path, plugin_path: str = "tools/evil.py") -> tuple[Path, Path]:
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    marker = tmp_path / "imported.txt"
    (repo / "tools" / "evil.py").write_text(PLUGIN.format(marker=str(marker), new_name="hacked"))
    (repo / "pyproject.toml").write_text(f'[tool.trncodemod]\nplugins = ["{plugin_path}:Rename"]\n')
    (repo / "train.py").write_text(SCRIPT)
    return repo, marker


def _run(*args: str):
    return CliRunner().invoke(main, [*args], catch_exceptions=False)


@pytest.mark.parametrize("command", [["check"], ["apply", "--dry-run"]])
def test_plugins_a_scanned_repository_names_are_not_imported_without_opt_in(
    tmp_path: Path, command: list[str]
) -> None:
    repo, marker = _repository(tmp_path)
    result = _run(*command, "--no-cache", str(repo))
    assert not marker.exists(), "the repository's plugin was imported"
    assert "NOT loaded" in result.stderr and "tools/evil.py:Rename" in result.stderr
    assert "--allow-config-plugins" in result.stderr
    assert result.exit_code == 1, result.output  # the file's own findings are still reported
    assert "hacked" not in result.output


def test_allow_config_plugins_loads_them_and_says_so(tmp_path: Path) -> None:
    repo, marker = _repository(tmp_path)
    result = _run("apply", "--dry-run", "--no-cache", "--allow-config-plugins", str(repo))
    assert marker.exists()
    assert f"plugins loaded ({repo / 'pyproject.toml'})" in result.stderr
    assert "+def hacked(model):" in result.stdout


def test_a_relative_plugin_path_resolves_against_the_configuration_not_the_current_folder(
    tmp_path: Path, monkeypatch
) -> None:
    repo, _marker = _repository(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tools").mkdir(parents=True)
    (elsewhere / "tools" / "evil.py").write_text(
        PLUGIN.format(marker=str(tmp_path / "wrong.txt"), new_name="wrong_one")
    )
    monkeypatch.chdir(elsewhere)
    result = _run("apply", "--dry-run", "--no-cache", "--allow-config-plugins", str(repo))
    assert not (tmp_path / "wrong.txt").exists()
    assert "+def hacked(model):" in result.stdout, result.stderr


@pytest.mark.parametrize("escape", ["../outside.py", "/{tmp}/outside.py", "tools/link.py"])
def test_a_configured_plugin_outside_its_project_is_refused_and_named(
    tmp_path: Path, escape: str
) -> None:
    repo, marker = _repository(tmp_path, escape.format(tmp=str(tmp_path).lstrip("/")))
    (tmp_path / "outside.py").write_text(PLUGIN.format(marker=str(marker), new_name="x"))
    (repo / "tools" / "link.py").symlink_to(tmp_path / "outside.py")
    result = _run("check", "--no-cache", "--allow-config-plugins", str(repo))
    assert result.exit_code == 2
    assert "lies outside the project" in result.stderr and "outside.py" in result.stderr
    assert not marker.exists()


def test_a_plugin_on_the_command_line_is_the_users_choice_and_is_announced(
    tmp_path: Path,
) -> None:
    repo, marker = _repository(tmp_path)
    plugin = repo / "tools" / "evil.py"
    result = _run("check", "--no-cache", "--plugin", f"{plugin}:Rename", str(repo))
    assert marker.exists()
    assert f"plugins loaded (command line): {plugin}:Rename" in result.stderr
    assert "NOT loaded" not in result.stderr


def test_settings_keep_configured_plugins_apart_until_allowed(tmp_path: Path) -> None:
    repo, _marker = _repository(tmp_path)
    withheld = load_settings(repo)
    assert withheld.plugins == () and withheld.withheld_plugins == ("tools/evil.py:Rename",)
    allowed = load_settings(repo, allow_plugins=True)
    assert allowed.plugins == (f"{repo.resolve() / 'tools' / 'evil.py'}:Rename",)


def test_a_plugin_escaping_its_project_fails_only_when_it_would_be_loaded(tmp_path: Path) -> None:
    repo, _marker = _repository(tmp_path, "../outside.py")
    assert load_settings(repo).withheld_plugins == ("../outside.py:Rename",)
    with pytest.raises(ConfigError, match="outside the project"):
        load_settings(repo, allow_plugins=True)
