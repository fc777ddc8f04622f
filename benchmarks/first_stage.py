"""Holds the first stage (``Pass.candidate``) to its promise, and measures what it saves.

    python benchmarks/first_stage.py [PATH ...] [--golden] [--target xla-2.9 --target neuron]
                                     [--pass NAME] [--compare]

Every file (``.py`` files under each PATH; with ``--golden`` every golden input too) is migrated
with the first stage off. For each pass run it records whether the pass reported or changed
anything, and whether ``candidate`` would have let it run on that code. A run the stage would
have skipped that acted is a violation: printed with the file, and the exit status is 1.

Per pass it prints runs, runs the stage skips, and runs that acted; ``--compare`` also migrates
every file with the stage on and checks that code and findings are the same (the end-to-end
proof; it would catch a pass that acts only after another pass's skipped run).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trncodemod.analysis.facts import facts_of_text  # noqa: E402
from trncodemod.commands.golden import find_cases  # noqa: E402
from trncodemod.config import Settings  # noqa: E402
from trncodemod.passes import Pass  # noqa: E402
from trncodemod.pipeline import migrate  # noqa: E402
from trncodemod.targets import load_target  # noqa: E402

Row = collections.namedtuple("Row", "runs skipped acted")


class Recorder:
    def __init__(self, only: set[str]) -> None:
        self.only = only
        self.rows: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
        self.violations: list[str] = []
        self.silent: list[str] = []
        self.facts: dict[str, object] = {}
        self.file = ""

    def install(self) -> None:
        original_transform = Pass.transform_with
        original_report = Pass.report
        recorder = self

        def report(self, node, rule, message, fixed):  # type: ignore[no-untyped-def]
            self._acted = True
            return original_report(self, node, rule, message, fixed)

        def transform_with(self, wrapper):  # type: ignore[no-untyped-def]
            self._acted = False
            tree = original_transform(self, wrapper)
            code = wrapper.module.code
            changed = tree is not wrapper.module and tree.code != code
            recorder.record(self, code, changed)
            return tree

        Pass.report = report
        Pass.transform_with = transform_with

    def record(self, instance: Pass, code: str, changed: bool) -> None:
        name = instance.name
        if self.only and name not in self.only:
            return
        if code not in self.facts:
            self.facts[code] = facts_of_text(code, instance.run.profile)
        facts = self.facts[code]
        skip = facts is not None and not type(instance).candidate(facts, instance.target)
        acted = instance._acted or changed
        row = self.rows[name]
        row[0] += 1
        row[1] += skip
        row[2] += acted
        if skip and acted:
            what = "changed the code" if changed else "reported"
            self.violations.append(f"{self.file}: {name} {what} where candidate() said no")
        if changed and not any(f.fixed for f in instance.findings):
            self.silent.append(f"{self.file}: {name} changed the code without a fixed finding")


def inputs(paths: list[Path], golden: bool) -> list[tuple[str, str, Settings | None]]:
    found = []
    for path in paths:
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            try:
                found.append((str(file), file.read_text("utf-8"), None))
            except (UnicodeDecodeError, OSError):
                continue
    if golden:
        for case in find_cases(ROOT / "golden"):
            text = case.input.read_text("utf-8")
            found.append((case.name, text, case.settings()))
            found.append((case.name + " (all passes)", text, None))
    return found


def migrate_all(files, targets, recorder=None) -> dict:  # type: ignore[no-untyped-def]
    results = {}
    for name, text, own in files:
        for target in [None] if own is not None else targets:
            settings = own if own is not None else Settings().with_overrides(target=target)
            key = f"{name} [{settings.target}]"
            if recorder is not None:
                recorder.file = key
            try:
                migration = migrate.migrate_text(text, name, settings)
                results[key] = (migration.text, migration.findings)
            except migrate.MigrationError as err:
                results[key] = ("error", str(err))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--golden", action="store_true")
    parser.add_argument("--target", action="append", dest="targets")
    parser.add_argument("--pass", action="append", dest="passes", default=[])
    parser.add_argument(
        "--alone", action="store_true", help="run only the --pass passes (faster, less exact)"
    )
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args()
    targets = args.targets or ["xla-2.9", "neuron"]
    for target in targets:
        load_target(target)
    files = inputs(args.paths, args.golden)
    recorder = Recorder(set(args.passes))
    if args.alone and args.passes:
        chosen = migrate.active_passes

        def active_passes(settings):  # type: ignore[no-untyped-def]
            passes, enabled = chosen(settings)
            return tuple(p for p in passes if p.name in args.passes), enabled

        migrate.active_passes = active_passes
    recorder.install()
    migrate.FIRST_STAGE = False
    start = time.process_time()
    without = migrate_all(files, targets, recorder)
    seconds = time.process_time() - start
    print(f"{len(without)} migrations of {len(files)} files, {seconds:.1f} s without the stage")
    print(f"{'pass':22s} {'runs':>6s} {'skipped':>8s} {'acted':>6s}")
    for name, (runs, skipped, acted) in sorted(recorder.rows.items()):
        print(f"{name:22s} {runs:6d} {skipped:8d} {acted:6d}")
    total = [sum(r[i] for r in recorder.rows.values()) for i in range(3)]
    print(f"{'all':22s} {total[0]:6d} {total[1]:8d} {total[2]:6d}")
    for line in recorder.silent[:20]:
        print("silent change:", line)
    failed = bool(recorder.violations)
    for line in recorder.violations:
        print("VIOLATION:", line)
    if args.compare:
        migrate.FIRST_STAGE = True
        start = time.process_time()
        with_stage = migrate_all(files, targets)
        print(f"with the stage: {time.process_time() - start:.1f} s")
        for key, result in without.items():
            if with_stage[key] != result:
                failed = True
                print("DIFFERENT:", key)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
