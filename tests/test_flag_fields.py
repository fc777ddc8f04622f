"""Flags a helper sets from an availability check on what it returns, read in other modules:
dropped only where every read chooses a device (``analysis.flag_fields``, ``program._flags``)."""

from __future__ import annotations

import textwrap

from trncodemod.analysis.program import build_program, summarize

ARGUMENTS = """
    import argparse
    import torch

    def get_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--no-cuda", action="store_true", default=False)
        args = parser.parse_args()
        args.cuda = not args.no_cuda and torch.cuda.is_available()
        return args
"""


def _views(main: str):
    files = {"main.py": main, "agent/__init__.py": "", "agent/arguments.py": ARGUMENTS}
    summaries = {path: summarize(textwrap.dedent(text)) for path, text in files.items()}
    return build_program(summaries).views


def test_a_flag_read_only_to_choose_the_device_drops_its_check():
    views = _views("""
        import torch
        from agent.arguments import get_args

        if __name__ == "__main__":
            args = get_args()
            device = torch.device("cuda:0" if args.cuda else "cpu")
    """)
    assert views["agent/arguments.py"].flag_checks == {9: ("", ("main.py:7:39",))}
    assert views["main.py"].imported_flags == {"args.cuda": (True, "agent/arguments.py:9")}


def test_a_flag_reached_through_the_module_attribute_is_matched():
    views = _views("""
        import torch
        from agent import arguments

        def main():
            args = arguments.get_args()
            if not args.cuda:
                device = "cpu"
            else:
                device = "cuda"
    """)
    assert views["agent/arguments.py"].flag_checks[9][0] == ""


def test_a_flag_that_chooses_a_cuda_kernel_keeps_its_check():
    views = _views("""
        from agent.arguments import get_args
        from kernels import cuda_scan, cpu_scan

        if __name__ == "__main__":
            args = get_args()
            scan = cuda_scan if args.cuda else cpu_scan
    """)
    why, _ = views["agent/arguments.py"].flag_checks[9]
    assert "`cuda_scan`" in why and "not a device" in why
    assert views["main.py"].imported_flags["args.cuda"][0] is False


def test_a_flag_object_handed_on_whole_keeps_its_check():
    views = _views("""
        from agent.arguments import get_args
        from train import train

        if __name__ == "__main__":
            args = get_args()
            train(args)
    """)
    assert "handed on whole" in views["agent/arguments.py"].flag_checks[9][0]


def test_a_flag_nobody_reads_is_left_to_the_file_rules():
    views = _views("""
        from agent.arguments import get_args

        if __name__ == "__main__":
            args = get_args()
            print(args.no_cuda)
    """)
    assert views["agent/arguments.py"].flag_checks == {}


def test_a_flag_object_kept_in_an_attribute_keeps_its_check():
    views = _views("""
        import torch
        from agent.arguments import get_args

        class Runner:
            def __init__(self):
                self.args = get_args()
                self.device = torch.device("cuda" if self.args.cuda else "cpu")
    """)
    assert "kept at line 7" in views["agent/arguments.py"].flag_checks[9][0]
