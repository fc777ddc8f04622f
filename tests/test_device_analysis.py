"""The training device analysis: what the model and batches are moved to on the target."""

from __future__ import annotations

import textwrap

import libcst as cst
from libcst.metadata import MetadataWrapper, QualifiedNameProvider

from trncodemod.analysis.device import ACCELERATOR, CPU, UNKNOWN, DeviceFacts, analyse
from trncodemod.analysis.nodes import find


def _facts(source: str) -> tuple[DeviceFacts, cst.Module]:
    wrapper = MetadataWrapper(cst.parse_module(textwrap.dedent(source)))
    names = wrapper.resolve(QualifiedNameProvider)

    def qualified(node: cst.CSTNode) -> set[str]:
        value = names.get(node, set())
        value = value() if callable(value) else value
        return {q.name for q in value}

    return analyse(wrapper.module, qualified), wrapper.module


def _code(module: cst.Module, nodes) -> set[str]:
    return {module.code_for_node(node) for node in nodes}


def test_an_opt_out_flag_with_its_default_leaves_the_accelerator_chosen():
    facts, module = _facts(
        """
        import argparse, torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--no-cuda", action="store_true", default=False)
        args = parser.parse_args()
        use_cuda = not args.no_cuda and torch.cuda.is_available()
        device = torch.device("cuda" if use_cuda else "cpu")
        model = torch.nn.Linear(2, 2).to(device)
        """
    )
    assert facts.outcome == {ACCELERATOR}
    assert _code(module, facts.gates) == {"torch.cuda.is_available()"}
    assert not facts.unresolved


def test_the_device_is_followed_through_function_arguments():
    facts, _module = _facts(
        """
        import torch
        def train(model, device, batch):
            return model(batch.to(device))
        def main():
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            train(torch.nn.Linear(2, 2), device, torch.zeros(2))
        """
    )
    assert facts.outcome == {ACCELERATOR}


def test_an_if_else_on_the_accelerator_check_takes_its_accelerator_branch():
    facts, module = _facts(
        """
        import torch
        if torch.accelerator.is_available():
            device = torch.accelerator.current_accelerator()
        else:
            device = torch.device("cpu")
        model = torch.nn.Linear(2, 2).to(device)
        """
    )
    assert facts.outcome == {ACCELERATOR}
    assert _code(module, facts.gates) == {"torch.accelerator.is_available()"}


def test_a_device_read_from_a_config_file_is_unknown_and_names_the_expression():
    facts, module = _facts(
        """
        import json, torch
        cfg = json.load(open("config.json"))
        device = torch.device(cfg["device"])
        model = torch.nn.Linear(2, 2).to(device)
        """
    )
    assert UNKNOWN in facts.outcome
    assert _code(module, facts.unresolved) == {'cfg["device"]'}


def test_an_explicit_cpu_device_is_found_where_it_is_bound():
    facts, module = _facts(
        """
        import torch
        device = "cpu"
        model = torch.nn.Linear(2, 2).to(device)
        """
    )
    assert facts.outcome == {CPU}
    assert _code(module, facts.cpu_values) == {'"cpu"'}


def test_a_copy_to_the_host_is_not_the_training_device():
    facts, _module = _facts(
        """
        import torch
        model = torch.nn.Linear(2, 2).cuda()
        loss = model(torch.zeros(2).cuda()).sum().to("cpu")
        """
    )
    assert facts.outcome == {ACCELERATOR}
    assert not facts.cpu_values


def test_a_cpu_device_beside_an_accelerator_one_is_not_rewritten():
    facts, _module = _facts(
        """
        import torch
        device = torch.device("cuda")
        host = "cpu"
        model = torch.nn.Linear(2, 2).to(device)
        stats = torch.zeros(2).to(host)
        """
    )
    assert not facts.cpu_values


def test_ranks_used_as_devices_are_found_at_the_use_or_where_the_device_is_built():
    facts, module = _facts(
        """
        import os, torch
        class Trainer:
            def __init__(self, model):
                self.gpu_id = int(os.environ["LOCAL_RANK"])
                self.model = model.to(self.gpu_id)
        def run(rank):
            device = torch.device(f"cuda:{rank}")
            return torch.zeros(2).to(device)
        """
    )
    assert _code(module, facts.rank_devices) == {"self.gpu_id"}
    assert _code(module, facts.rank_values) == {'torch.device(f"cuda:{rank}")'}


_PASSED = """
import os, torch
def build(device):
    return torch.nn.Linear(2, 2).to(device)
def train(model, device):
    for _ in range(3):
        model(torch.randn(2, 2).to(device)).sum().backward()
def fit(device):
    train(build(device), device)
def main():
    device = torch.device("cuda", int(os.environ["LOCAL_RANK"]))
    fit(device)
"""


def _at_use(source: str) -> set[str]:
    """The moves whose rank device is rewritten where it is used (TRN024 at the use)."""
    facts, module = _facts(source)
    return {
        module.code_for_node(call)
        for call in find(module, cst.Call)
        if any(arg.value in facts.rank_devices for arg in call.args)
    }


_BUILD = "torch.nn.Linear(2, 2).to(device)"
_BATCH = "torch.randn(2, 2).to(device)"


def test_a_parameter_every_caller_fills_with_an_index_built_device_is_rewritten_where_built():
    facts, module = _facts(_PASSED)
    assert not facts.rank_devices
    assert {module.code_for_node(use) for use in facts.passed_ranks} == {"device"}
    (origins,) = {passed.origins for passed in facts.passed_ranks.values()}
    assert _code(module, origins) == {'torch.device("cuda", int(os.environ["LOCAL_RANK"]))'}
    callers = set().union(*(passed.callers for passed in facts.passed_ranks.values()))
    assert callers == {"build", "train", "fit"}  # another module calling one changes the answer


def test_a_parameter_one_caller_fills_with_a_literal_index_is_rewritten_where_used():
    assert _at_use(_PASSED + "def smoke():\n    return build(0)\n") == {_BUILD}


def test_a_parameter_whose_callers_the_file_may_not_show_is_rewritten_where_used():
    cases = {
        "handed on as a value": (_PASSED + "import threading\nthreading.Thread(target=train)\n"),
        "decorated": _PASSED.replace("def train(", "@some.decorator\ndef train("),
        "filled by its default": _PASSED.replace(
            "def build(device)", "def build(device=0)"
        ).replace("build(device)", "build()"),
        "unpacked arguments": _PASSED.replace("fit(device)\n", "fit(*[device])\n"),
        "a rank": _PASSED.replace("    fit(device)\n", "    fit(device)\n    fit(rank)\n").replace(
            "def main():", 'rank = int(os.environ["RANK"])\ndef main():'
        ),
        "a keyword-only parameter": _PASSED.replace(
            "def train(model, device)", "def train(model, *, device)"
        ).replace("train(build(device), device)", "train(build(device), device=device)"),
    }
    expected = {
        "handed on as a value": {_BATCH},
        "decorated": {_BATCH},
        "filled by its default": {_BUILD},
        "unpacked arguments": {_BUILD, _BATCH},
        "a rank": {_BUILD, _BATCH},
        "a keyword-only parameter": {_BATCH},
    }
    for why, source in cases.items():
        assert _at_use(source) == expected[why], why
    # A name also bound where no binding is collected (a comprehension's target here) is not
    # followed: which binding a read sees is not known.
    shadowed = _PASSED + "def each(devices):\n    return [d.to(device) for device in devices]\n"
    assert {_BUILD, _BATCH} <= _at_use(shadowed)


def test_methods_and_spawned_functions_are_followed_to_their_callers():
    facts, module = _facts(
        """
        import torch
        import torch.multiprocessing as mp
        class Trainer:
            def __init__(self, model, device):
                self.model = model.to(device)
            def step(self, x, device):
                return self.model(x.to(device))
        def worker(rank, world):
            device = torch.device(f"cuda:{rank}")
            trainer = Trainer(torch.nn.Linear(2, 2), device)
            trainer.step(torch.zeros(2), device)
        mp.spawn(worker, args=(2,), nprocs=2)
        """
    )
    assert not facts.rank_devices
    callers = set().union(*(passed.callers for passed in facts.passed_ranks.values()))
    assert callers == {"Trainer"}
    # The index `mp.spawn` passes is no device built anywhere: rewritten where it is used.
    spawned = """
    import torch
    import torch.multiprocessing as mp
    def worker(rank, world):
        torch.nn.Linear(2, 2).to(rank)
    mp.spawn(worker, args=(2,), nprocs=2)
    """
    assert _at_use(textwrap.dedent(spawned)) == {"torch.nn.Linear(2, 2).to(rank)"}


def test_forward_and_classes_built_by_cls_are_rewritten_where_used():
    facts, module = _facts(
        """
        import torch
        class Net(torch.nn.Module):
            def forward(self, x, device):
                return x.to(device)
        class Holder:
            def __init__(self, device):
                self.x = torch.zeros(2).to(device)
            @classmethod
            def make(cls):
                return cls(0)
        device = torch.device("cuda", 0)
        Net().forward(torch.zeros(2), device)
        Holder(device)
        """
    )
    assert _code(module, facts.rank_devices) == {"device"}
    assert not facts.passed_ranks


def test_a_name_read_where_a_lambda_rebinds_it_is_not_followed_outside():
    facts, module = _facts(
        """
        import torch
        def main():
            device = torch.device("cuda", 0)
            move = lambda x, device: x.to(device)
            return move(torch.zeros(2), 1)
        """
    )
    assert _code(module, facts.rank_devices) == {"device"}


def test_a_literal_second_gpu_is_not_taken_for_a_process_device():
    facts, _module = _facts(
        """
        import torch
        stage2 = torch.nn.Linear(2, 2).to(torch.device("cuda", 1))
        """
    )
    assert not facts.rank_values


def test_nanogpt_device_type_and_dtype_resolve_on_the_target():
    facts, module = _facts(
        """
        import torch
        device = "cuda"
        dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float16"
        device_type = "cuda" if "cuda" in device else "cpu"
        ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16}[dtype]
        model = torch.nn.Linear(2, 2).to(device)
        """
    )
    ptdtype = next(
        s.body[0].value
        for s in module.body
        if isinstance(s, cst.SimpleStatementLine)
        and isinstance(s.body[0], cst.Assign)
        and module.code_for_node(s.body[0].targets[0].target) == "ptdtype"
    )
    assert facts.dtype(ptdtype) == "bfloat16"
    assert len(facts.gates) == 2
    assert True in facts.known_tests.values()


def test_a_float16_choice_stays_float16():
    facts, module = _facts(
        """
        import torch
        dtype = "float16"
        ptdtype = {"bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
        """
    )
    assign = module.body[2].body[0]
    assert facts.dtype(assign.value) == "float16"


def test_a_launcher_sized_by_the_cuda_count_is_found_through_its_variable():
    facts, module = _facts(
        """
        import torch, torch.multiprocessing as mp
        def run(rank, world_size):
            torch.zeros(2).to(rank)
        world_size = torch.cuda.device_count()
        mp.spawn(run, args=(world_size,), nprocs=world_size)
        mp.spawn(run, args=(2,), nprocs=2)
        """
    )
    assert _code(module, facts.launchers.values()) == {"torch.cuda.device_count()"}
    assert len(facts.launchers) == 1


def test_a_file_that_puts_nothing_on_a_device_says_so():
    facts, _module = _facts(
        """
        import torch
        torch.manual_seed(0)
        order = torch.randperm(10)
        """
    )
    assert not facts.places_on_device
    assert facts.outcome == frozenset()


def test_an_availability_check_that_guards_something_else_is_not_resolved():
    facts, _module = _facts(
        """
        import torch
        if torch.cuda.is_available():
            torch.cuda.manual_seed_all(0)
        model = torch.nn.Linear(2, 2).cuda()
        """
    )
    assert not facts.gates


def test_a_flag_that_keeps_every_move_off_by_default_is_named():
    facts, module = _facts(
        """
        import argparse, torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--cuda", action="store_true")
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2)
        if args.cuda:
            model.cuda()
        """
    )
    assert _code(module, facts.skipped_moves) == {"args.cuda"}


def test_a_move_under_a_device_type_test_is_not_taken_for_a_skipped_one():
    facts, _module = _facts(
        """
        import torch
        device = "cuda"
        device_type = "cuda" if "cuda" in device else "cpu"
        x = torch.zeros(2)
        if device_type == "cuda":
            x = x.pin_memory().to(device, non_blocking=True)
        else:
            x = x.to(device)
        """
    )
    assert not facts.skipped_moves
    assert facts.outcome == {ACCELERATOR}


def test_a_cpu_default_of_a_device_option_is_the_value_to_change():
    facts, module = _facts(
        """
        import argparse, torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cpu")
        args = parser.parse_args()
        model = torch.nn.Linear(2, 2).to(args.device)
        """
    )
    assert facts.outcome == {CPU}
    assert _code(module, facts.cpu_values) == {'"cpu"'}


def test_the_device_an_object_lives_on_is_not_a_decision_but_a_config_field_is():
    facts, module = _facts(
        """
        import torch
        def step(accelerator, batch, cfg):
            out = batch.to(accelerator.device)
            return out.to(cfg.device)
        torch.zeros(1).backward()
        """
    )
    assert _code(module, facts.unresolved) == {"cfg.device"}
