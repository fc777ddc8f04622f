"""`trncodemod golden check|update`: golden-file review of a team's own cases."""

from pathlib import Path

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
