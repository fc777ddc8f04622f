"""`trncodemod campaign run` on the local engine: a result per repository, failures recorded
while the campaign goes on, reruns that keep what is up to date, and a killed driver that the
next run finishes with every repository done once. (Ray: tests/test_campaign_ray.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from fleet import BROKEN, KINDS, git, kind_of, make_fleet, make_repository
from hostile_probes import hostile_probe

from trncodemod.campaign.spec import SpecError, load_spec
from trncodemod.cli import main


def run_campaign(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["campaign", "run", *args])
    return result.exit_code, result.output


def result_of(out: Path, name: str) -> dict:
    return json.loads((out / name / "result.json").read_text())


def test_every_repository_gets_a_result_and_failures_do_not_stop_the_campaign(
    campaign_fleet,
) -> None:
    root, out, code, output = campaign_fleet
    assert "engine: local" in output and "not Ray" in output
    expected = {"cuda": "migrated", "blocked": "migrated", "plain": "no-change"}
    for index in range(6):
        assert result_of(out, f"r{index:02d}")["status"] == expected[kind_of(index)]
    assert result_of(out, "gone")["status"] == "clone-failed"
    assert "does not exist" in result_of(out, "gone")["reason"]
    crashed = result_of(out, "badconfig")
    assert crashed["status"] == "crashed" and "unknown key `colour`" in crashed["reason"]
    assert code == 1, "a failed repository makes the run exit 1"
    assert "2 clone-failed" not in output and "1 clone-failed" in output and "4 migrated" in output
    # The summary names what failed and what blocks, not only how many.
    assert "failed: 2 repositories:\n  badconfig: crashed: " in output
    assert "  gone: clone-failed: " in output
    assert "blocked: 2 repositories," in output
    assert "  r01: 1 blocker; read first: train.py:" in output and "  r04: 1 blocker" in output


def test_a_result_names_its_inputs_counts_timings_and_versions(campaign_fleet) -> None:
    root, out, _, _ = campaign_fleet
    result = result_of(out, "r00")
    assert result["inputs"]["commit"] == git("rev-parse", "HEAD", cwd=root / "repos" / "r00")
    assert result["inputs"]["tool"]["version"] == result["versions"]["trncodemod"]
    assert result["counts"]["fixed"] == 2 and result["counts"]["changed"] == 1
    assert result["rules"]["TRN001"] == {"findings": 2, "fixed": 2, "blockers": 0}
    assert result_of(out, "r01")["counts"]["blockers"] >= 1
    assert {"checkout", "migrate", "task", "total"} <= set(result["timings"])
    assert {"python", "libcst", "git", "build"} <= set(result["versions"])
    findings = json.loads((out / "r00" / "findings.json").read_text())
    assert {f["code"] for f in findings["findings"]} >= {"TRN001"}


def test_the_branch_is_made_in_the_work_clone_and_nothing_is_pushed(campaign_fleet) -> None:
    root, out, _, _ = campaign_fleet
    result = result_of(out, "r00")
    work = out / ".work" / "r00"
    assert git("rev-parse", "trncodemod/xla-2.9", cwd=work) == result["branch_commit"]
    assert git("rev-parse", "trncodemod/xla-2.9^", cwd=work) == result["inputs"]["commit"]
    assert git("branch", "--list", cwd=root / "repos" / "r00").split() == ["*", "main"]
    description = (out / "r00" / "description.md").read_text()
    assert description.startswith("# Migrate to AWS Trainium (xla-2.9)")


def test_the_patch_applies_to_the_input_commit(campaign_fleet, tmp_path: Path) -> None:
    root, out, _, _ = campaign_fleet
    git("clone", "-q", str(root / "repos" / "r00"), str(tmp_path / "c"), cwd=tmp_path)
    git("apply", "--check", str(out / "r00" / "migration.patch"), cwd=tmp_path / "c")
    assert (out / "r02" / "migration.patch").read_bytes() == b"", "nothing to change, no patch"


def test_verify_without_a_runtime_is_recorded_as_not_run_with_the_reason(campaign_fleet) -> None:
    _, out, _, _ = campaign_fleet
    verify = result_of(out, "r00")["verify"]
    assert verify["verdict"] == "not run"
    assert "no-such-python" in verify["reason"]
    assert result_of(out, "r02")["verify"] == {
        "verdict": "not run",
        "reason": "no single-process entry script changed",
        "scripts": [],
    }


def test_a_rerun_keeps_up_to_date_results_and_redoes_what_changed(tmp_path: Path) -> None:
    spec = make_fleet(tmp_path, 3, BROKEN.split('[[repos]]\nname = "badconfig"')[0])
    out = tmp_path / "out"
    run_campaign(str(spec), "--out", str(out), "--engine", "local", "--cpus", "2")
    first = {name: result_of(out, name)["run"]["id"] for name in ("r00", "r01", "r02")}
    (tmp_path / "repos" / "r01" / "more.py").write_text(KINDS["cuda"])
    git("add", ".", cwd=tmp_path / "repos" / "r01")
    git("commit", "-qm", "more", cwd=tmp_path / "repos" / "r01")
    code, output = run_campaign(str(spec), "--out", str(out), "--engine", "local", "--cpus", "2")
    assert "2 up to date (kept)" in output and "1 clone-failed" in output
    assert result_of(out, "r00")["run"]["id"] == first["r00"]
    assert result_of(out, "r01")["run"]["id"] != first["r01"]
    assert result_of(out, "r01")["counts"]["changed"] == 2
    code, output = run_campaign(
        str(spec), "--out", str(out), "--engine", "local", "--only", "failed"
    )
    assert "campaign: 1 repository: 1 clone-failed" in output
    code, output = run_campaign(
        str(spec), "--out", str(out), "--engine", "local", "--only", "changed"
    )
    # r01's blocker is left (kept, not redone): the run says so and exits 1, unless told not to.
    assert "campaign: 3 repositories: 3 up to date (kept)" in output and code == 1
    assert "  r01: 1 blocker; read first: train.py:" in output
    code, _ = run_campaign(
        str(spec), "--out", str(out), "--engine", "local", "--only", "changed", "--exit-zero"
    )
    assert code == 0
    code, output = run_campaign(
        str(spec), "--out", str(out), "--engine", "local", "--only", "blocked"
    )
    assert "campaign: 1 repository: 1 up to date (kept)" in output, "r01, the one with a blocker"


def test_a_repository_past_its_timeout_is_recorded_and_stopped(tmp_path: Path) -> None:
    # A 200 kB script takes LibCST seconds to parse: far past a 1 s limit.
    make_repository(tmp_path / "big", {"big.py": "import torch\n" + KINDS["cuda"] * 8000})
    (tmp_path / "spec.toml").write_text('[[repos]]\nname = "big"\nurl = "big"\ntimeout = 1\n')
    code, output = run_campaign(
        str(tmp_path / "spec.toml"), "--out", str(tmp_path / "out"), "--engine", "local"
    )
    result = result_of(tmp_path / "out", "big")
    assert result["status"] == "timed-out" and "1 s" in result["reason"]
    assert code == 1


def test_engine_ray_without_ray_installed_fails_with_the_install_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    spec = tmp_path / "spec.toml"
    spec.write_text('[[repos]]\nname = "a"\nurl = "a"\n')
    code, output = run_campaign(str(spec), "--out", str(tmp_path / "out"), "--engine", "ray")
    assert code == 2
    assert (
        "pip install 'ray>=2.9'" in output
        and "pip install '.[campaign]'" in output
        and "--engine local" in output
    )


def test_spec_defaults_apply_and_entries_override_them(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        '[defaults]\ntarget = "xla-2.5"\nlog-interval = 5\npaths = ["src"]\n\n'
        '[[repos]]\nname = "a"\nurl = "code/a"\n\n'
        '[[repos]]\nname = "b"\nurl = "https://example.com/b.git"\nref = "v1"\ntarget = "neuron"\n'
    )
    a, b = load_spec(spec)
    assert a.url == str(tmp_path / "code" / "a") and a.options["log-interval"] == 5
    assert a.paths == ("src",) and a.branch == "trncodemod/xla-2.5"
    assert b.url == "https://example.com/b.git" and b.ref == "v1"
    assert b.options["target"] == "neuron" and b.branch == "trncodemod/neuron"
    assert a.fingerprint != b.fingerprint


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[repos]]\nname = "a"\nurl = "a"\nlog-interval = 0\n', "bad value for `log-interval`"),
        ('[[repos]]\nname = "a"\nurl = "a"\ncolour = 1\n', "unknown key `colour`"),
        (
            '[[repos]]\nname = "a"\nurl = "a"\n[[repos]]\nname = "a"\nurl = "b"\n',
            "two repositories",
        ),
        ('[[repos]]\nname = "a/b"\nurl = "a"\n', "`name` must be"),
        ('[[repos]]\nname = "a"\nurl = "a"\nplugins = ["x:y"]\n', "runs no plugins"),
        ("[defaults]\ntarget = 'xla-2.9'\n", "needs `[[repos]]`"),
    ],
)
def test_a_bad_spec_names_the_repository_and_the_key(
    tmp_path: Path, body: str, message: str
) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(body)
    with pytest.raises(SpecError, match=message.replace("[", r"\[")):
        load_spec(spec)


def _wait_for_results(out: Path, count: int, driver: subprocess.Popen, limit: float) -> None:
    deadline = time.monotonic() + limit
    while len(list(out.glob("*/result.json"))) < count:
        assert driver.poll() is None, "the driver ended before it could be killed"
        assert time.monotonic() < deadline, "no results came"
        time.sleep(0.2)


def test_a_driver_killed_mid_run_is_finished_by_the_next_with_each_repository_done_once(
    tmp_path: Path,
) -> None:
    spec = make_fleet(tmp_path, 20)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "trncodemod", "campaign", "run", str(spec), "--out", str(out),
               "--engine", "local", "--cpus", "2"]  # fmt: skip
    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_results(out, 4, driver, limit=300)
    finally:
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
    before = {path.parent.name: json.loads(path.read_text())["run"]["id"]
              for path in out.glob("*/result.json")}  # fmt: skip
    assert 4 <= len(before) < 20, "killed mid-run"
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 1, rerun.stderr  # the fleet's "blocked" repositories
    assert "failed:" not in rerun.stderr
    after = {f"r{i:02d}": result_of(out, f"r{i:02d}") for i in range(20)}
    assert all(r["status"] in ("migrated", "no-change") for r in after.values()), "none lost"
    for name, run_id in before.items():
        assert after[name]["run"]["id"] == run_id, f"{name} was done again"
    second = {r["run"]["id"] for name, r in after.items() if name not in before}
    assert len(second) == 1 and not second & set(before.values()), "the rest, by the rerun"
    assert f"{len(before)} up to date (kept)" in rerun.stderr
    assert not list(out.glob("*/.*.tmp")), "no temporary file left behind"


def test_progress_shows_done_failures_and_time_left_on_a_terminal_only(tmp_path: Path) -> None:
    import pty

    spec = make_fleet(tmp_path, 1, BROKEN.split('[[repos]]\nname = "badconfig"')[0])
    command = [sys.executable, "-m", "trncodemod", "campaign", "run", str(spec), "--engine",
               "local", "--retries", "0", "--out"]  # fmt: skip
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "120"}
    driver = subprocess.Popen([*command, str(tmp_path / "tty")], stderr=follower, env=env)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the driver closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    driver.wait(timeout=300)
    os.close(leader)
    text = shown.decode("utf-8", "replace")
    assert "campaign" in text and "1/2" in text and "1 failed" in text and "ETA" in text
    piped = subprocess.run([*command, str(tmp_path / "pipe")], capture_output=True, text=True)
    assert "ETA" not in piped.stderr and "1 clone-failed" in piped.stderr


def test_ctrl_c_stops_the_run_at_once_and_the_rerun_finishes_it(tmp_path: Path) -> None:
    spec = make_fleet(tmp_path, 6)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "trncodemod", "campaign", "run", str(spec), "--out", str(out),
               "--engine", "local", "--cpus", "2"]  # fmt: skip
    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_results(out, 1, driver, limit=300)
    driver.send_signal(signal.SIGINT)
    _, stderr = driver.communicate(timeout=30)
    assert driver.returncode == 130
    assert "interrupted: the repositories recorded so far are kept" in stderr
    done = len(list(out.glob("*/result.json")))
    assert 1 <= done < 6
    rerun = subprocess.run([*command, "--exit-zero"], capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0 and f"{done} up to date (kept)" in rerun.stderr
    assert len(list(out.glob("*/result.json"))) == 6


@pytest.mark.skipif(os.name != "posix", reason="a file name of any bytes is POSIX's")
def test_a_file_name_that_is_not_utf8_is_migrated_not_a_crashed_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    with open(os.path.join(os.fsencode(repo), b"caf\xe9.py"), "wb") as handle:
        handle.write(KINDS["cuda"].encode())
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", ".", cwd=repo)
    git("commit", "-qm", "initial", cwd=repo)
    spec = tmp_path / "fleet.toml"
    spec.write_text('[[repos]]\nname = "r"\nurl = "repo"\n')
    out = tmp_path / "out"
    run_campaign(str(spec), "--out", str(out), "--engine", "local")
    result = result_of(out, "r")
    assert result["status"] == "migrated", result.get("reason")
    assert "caf\\xe9.py" in (out / "r" / "description.md").read_text("utf-8")


@pytest.mark.parametrize(
    "probe",
    [
        "campaign-paths-through-a-committed-link",
        "campaign-timeout-leaves-git-clone",
        "campaign-killed-driver-leaves-git-clone",
        "campaign-verify-orphans-and-crashes",
        "clone-url-read-as-an-option",
    ],
)
def test_hostile_campaigns_stay_inside_what_was_asked(tmp_path: Path, probe: str) -> None:
    passed, seen = hostile_probe(probe)(tmp_path.resolve())
    assert passed, seen


def test_an_out_folder_the_tool_did_not_make_is_refused_and_keeps_its_files(
    tmp_path: Path,
) -> None:
    mine = tmp_path / "results" / "r"
    mine.mkdir(parents=True)
    (mine / "description.md").write_text("mine\n")
    spec = tmp_path / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{tmp_path / "gone"}"\n')
    out = str(tmp_path / "results")
    code, output = run_campaign(str(spec), "--out", out, "--engine", "local", "--retries", "0")
    assert code == 2 and "pass --reuse-out" in output
    code, output = run_campaign(
        str(spec), "--out", out, "--engine", "local", "--retries", "0", "--reuse-out"
    )
    assert code == 1 and result_of(tmp_path / "results", "r")["status"] == "clone-failed"
    assert (mine / "description.md").read_text() == "mine\n", "a file it did not write is kept"


def test_a_work_folder_holding_the_users_checkout_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "source"
    make_repository(source, {"train.py": "import torch\nm = torch.nn.Linear(2, 2).cuda()\n"})
    mine = tmp_path / "mine"
    git("clone", "-q", str(source), str(mine / "r"), cwd=tmp_path)
    (mine / "r" / "notes.txt").write_text("untracked\n")
    spec = tmp_path / "fleet.toml"
    spec.write_text(f'[[repos]]\nname = "r"\nurl = "{source}"\n')
    args = ["--out", str(tmp_path / "out"), "--work", str(mine), "--engine", "local"]
    code, output = run_campaign(str(spec), *args)
    assert code == 2 and "pass --reuse-work" in output
    assert (mine / "r" / "notes.txt").exists()


@pytest.mark.parametrize("key", ["url", "ref", "branch"])
def test_a_spec_value_git_would_read_as_an_option_is_refused(tmp_path: Path, key: str) -> None:
    spec = tmp_path / "fleet.toml"
    entry = {"url": "../r", key: "--upload-pack=touch x:y"}
    spec.write_text('[[repos]]\nname = "r"\n' + "".join(f'{k} = "{v}"\n' for k, v in entry.items()))
    with pytest.raises(SpecError, match="starts with '-'"):
        load_spec(spec)
