"""Which loops `find_step_loops` says iterate a device loader: the step-marker pass skips exactly
those, so a wrong answer either drops a needed graph cut or adds a pointless one."""

import libcst as cst

from trncodemod.analysis.loops import find_step_loops, iterates_device_loader


def _device_loader_flags(source: str) -> list[bool]:
    loops = find_step_loops(cst.parse_module(source))
    return [info.iterates_device_loader for info in loops.values()]


TRAIN_BODY = "        model(x).backward()\n        opt.step()\n"


def test_a_loader_reassigned_to_an_mpdeviceloader_is_a_device_loader() -> None:
    source = (
        "def f(loader, device):\n"
        "    loader = DataLoader(ds)\n"
        "    loader = pl.MpDeviceLoader(loader, device)\n"
        "    for x in enumerate(loader):\n" + TRAIN_BODY
    )
    assert _device_loader_flags(source) == [True]


def test_an_assignment_in_a_sibling_branch_is_not_trusted() -> None:
    source = (
        "def f(loader, device, xla):\n"
        "    if xla:\n"
        "        loader = pl.MpDeviceLoader(loader, device)\n"
        "    for x in loader:\n" + TRAIN_BODY
    )
    assert _device_loader_flags(source) == [False]


def test_an_assignment_in_another_function_does_not_leak() -> None:
    source = (
        "def g(loader, device):\n"
        "    loader = pl.MpDeviceLoader(loader, device)\n"
        "def f(loader):\n"
        "    for x in loader:\n" + TRAIN_BODY
    )
    assert _device_loader_flags(source) == [False]


def test_an_attribute_set_in_init_and_iterated_in_a_method_is_a_device_loader() -> None:
    source = (
        "class T:\n"
        "    def fit(self):\n"
        "        for x in tqdm(self.loader):\n"
        "            model(x).backward()\n"
        "            opt.step()\n"
        "    def __init__(self, loader, device):\n"
        "        self.loader = MpDeviceLoader(loader, device)\n"
    )
    assert _device_loader_flags(source) == [True]


def test_an_aliased_loader_class_and_per_device_loader_are_recognised() -> None:
    source = (
        "from torch_xla.distributed.parallel_loader import MpDeviceLoader as DL\n"
        "def f(loader, device):\n"
        "    for x in DL(loader, device):\n" + TRAIN_BODY + "    for x in "
        "pl.ParallelLoader(loader, [device]).per_device_loader(device):\n" + TRAIN_BODY
    )
    assert _device_loader_flags(source) == [True, True]


def test_iterates_device_loader_still_takes_just_the_loop() -> None:
    loop = cst.parse_statement("for x in pl.MpDeviceLoader(a, d):\n    pass\n")
    assert isinstance(loop, cst.For)
    assert iterates_device_loader(loop)


def test_own_readers_counts_only_reads_made_on_every_call() -> None:
    """A module function is a loop's host read only where it reads the argument on every
    call: not under an `if`, a conditional expression, a short-circuit or a lambda."""
    from trncodemod.analysis.host_cut import own_readers

    source = """
def save_output(name, pred, folder):
    predict = pred
    predict = predict.squeeze()
    arr = predict.cpu().data.numpy()

def under_if(name, pred, keep):
    if keep:
        arr = pred.cpu().numpy()

def under_ifexp(name, pred, keep):
    arr = pred.cpu().numpy() if keep else None

def under_and(pred, keep):
    return keep and pred.item()

def other_name(pred, other):
    other = pred
    other = compute(other)
    return other.item()
"""
    assert own_readers(cst.parse_module(source)) == {"save_output": frozenset({1})}
