"""`trncodemod golden check|update`: golden-file review of a team's own cases."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from trncodemod.cli import main

CASE = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\n"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "ours"  # names no pass: every pass runs
    folder.mkdir()
    (folder / "train.in.py").write_text(CASE)
    return folder


def test_update_then_check_is_clean(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    result = CliRunner().invoke(main, ["golden", "update", str(folder)])
    assert result.exit_code == 0, result.output
    assert ".to(torch_xla.device())" in (folder / "train.out.py").read_text()
    assert "TRN001" in (folder / "train.findings").read_text()
    assert CliRunner().invoke(main, ["golden", "check", str(folder)]).exit_code == 0


def test_check_prints_a_diff_and_fails_on_a_mismatch(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    CliRunner().invoke(main, ["golden", "update", str(folder)])
    (folder / "train.out.py").write_text(CASE)  # a stale expectation
    result = CliRunner().invoke(main, ["golden", "check", str(folder)])
    assert result.exit_code == 1
    assert "+model = torch.nn.Linear(2, 2).to(torch_xla.device())" in result.stdout
    assert "1 differ" in result.stderr


def test_target_override_applies_to_every_case(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    CliRunner().invoke(main, ["golden", "update", "--target", "neuron", str(folder)])
    assert 'torch.device("neuron")' in (folder / "train.out.py").read_text()
    assert CliRunner().invoke(main, ["golden", "check", str(folder)]).exit_code == 1
    assert (
        CliRunner().invoke(main, ["golden", "check", "--target", "neuron", str(folder)]).exit_code
        == 0
    )


def test_a_folder_without_cases_is_a_usage_error(tmp_path: Path) -> None:
    for command in ("check", "update"):
        result = CliRunner().invoke(main, ["golden", command, str(tmp_path)])
        assert result.exit_code == 2
        assert "no golden cases" in result.output


def test_a_bad_option_names_the_case_once(tmp_path: Path) -> None:
    folder = tmp_path / "ours"
    folder.mkdir()
    case = folder / "bad.in.py"
    case.write_text("# golden: no-such-option=1\nimport torch\n")
    result = CliRunner().invoke(main, ["golden", "check", str(folder)])
    assert result.exit_code == 1
    assert result.output.count(str(case)) == 1 and "no-such-option" in result.output


@pytest.mark.parametrize("planted", ["train.out.py", "train.findings"])
def test_update_refuses_to_write_through_a_link_out_of_the_folder(
    tmp_path: Path, planted: str
) -> None:
    folder = _folder(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / planted).symlink_to(victim)
    result = CliRunner().invoke(main, ["golden", "update", str(folder)])
    assert result.exit_code == 2
    assert f"{folder / planted}: refused: resolves to {victim}" in result.stderr
    assert victim.read_text() == "precious\n"


def test_check_refuses_to_read_an_input_that_links_out_of_the_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    secret = tmp_path / "secret.py"
    secret.write_text("AWS_SECRET=abc123\n")
    (folder / "leak.in.py").symlink_to(secret)
    result = CliRunner().invoke(main, ["golden", "check", str(folder)])
    assert result.exit_code == 1
    assert "abc123" not in result.output
    assert f"{folder / 'leak.in.py'}: refused: resolves to {secret}" in result.stdout


PLUGIN = """\
import pathlib

import libcst as cst

pathlib.Path(__file__).with_name("imported.txt").write_text("imported")


class Rename(cst.CSTTransformer):
    def leave_Name(self, original_node, updated_node):
        if updated_node.value == "model":
            return updated_node.with_changes(value="hacked")
        return updated_node
"""


def _plugin_case(tmp_path: Path) -> Path:
    folder = _folder(tmp_path)
    (folder / "plugin.py").write_text(PLUGIN)
    (folder / "train.in.py").write_text("# golden: plugins=plugin.py:Rename\n" + CASE)
    return folder


def test_a_plugin_a_case_header_names_is_not_loaded_without_opt_in(tmp_path: Path) -> None:
    folder = _plugin_case(tmp_path)
    result = CliRunner().invoke(main, ["golden", "update", str(folder)])
    assert not (folder / "imported.txt").exists(), "the case's plugin was imported"
    assert "NOT loaded" in result.stderr and "--allow-config-plugins" in result.stderr
    assert "hacked" not in (folder / "train.out.py").read_text()


def test_allow_config_plugins_loads_a_case_header_plugin_and_says_so(tmp_path: Path) -> None:
    folder = _plugin_case(tmp_path)
    result = CliRunner().invoke(main, ["golden", "update", "--allow-config-plugins", str(folder)])
    assert result.exit_code == 0, result.output
    assert (folder / "imported.txt").exists()
    assert f"plugins loaded ({folder / 'train.in.py'})" in result.stderr
    assert "hacked = torch.nn.Linear" in (folder / "train.out.py").read_text()


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "deep.in.py:2: syntax error: too many nested"),
        ("f = " + "lambda: " * 3000 + "0", "deep.in.py: too deeply nested to parse"),
    ],
)
@pytest.mark.parametrize("command", ["check", "update"])
def test_a_case_nested_too_deep_is_named_not_a_traceback(
    tmp_path: Path, command: str, code: str, said: str
) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "deep.in.py").write_text(f"import torch\n{code}\n")
    result = CliRunner().invoke(main, ["golden", command, str(tmp_path)])
    assert result.exit_code in (1, 2)
    assert said in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
