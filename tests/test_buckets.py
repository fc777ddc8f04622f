"""The `_pad_to_bucket` helper that the buckets pass emits, run for real with torch.

The tool itself never imports torch; these tests skip where torch is not installed (run them with
an interpreter that has torch, e.g. the torch-xla 2.9.0 environment of the XLA lane).
"""

from __future__ import annotations

import math

import pytest
from trncodemod.transforms.buckets import HELPER, PadToBuckets, helper_source

from trncodemod.config import Settings
from trncodemod.pipeline.migrate import migrate_text

torch = pytest.importorskip("torch", reason="torch is not installed: the emitted helper needs it")


def _helper(buckets: tuple[int, ...] = (), multiple: int = 64):
    namespace = {"torch": torch}
    exec(helper_source(buckets, multiple), namespace)
    return namespace[HELPER]


def _sequences(*lengths: int, features: tuple[int, ...] = ()) -> list:
    return [torch.arange(1, n * math.prod(features) + 1).reshape(n, *features) for n in lengths]


def test_batch_first_pads_time_to_the_next_multiple_with_the_padding_value() -> None:
    sequences = _sequences(3, 5)
    padded = _helper(multiple=8)(sequences, batch_first=True, padding_value=-100)
    expected = torch.nn.utils.rnn.pad_sequence(sequences, batch_first=True, padding_value=-100)
    assert padded.shape == (2, 8)
    assert padded.dtype == torch.long
    assert torch.equal(padded[:, :5], expected)
    assert (padded[:, 5:] == -100).all()


def test_time_major_pads_dim_0_and_keeps_trailing_feature_dims() -> None:
    sequences = _sequences(3, 6, features=(2, 7))
    padded = _helper(multiple=4)(sequences, padding_value=0)
    expected = torch.nn.utils.rnn.pad_sequence(sequences)
    assert padded.shape == (8, 2, 2, 7)
    assert torch.equal(padded[:6], expected)
    assert (padded[6:] == 0).all()


def test_explicit_buckets_pick_the_next_size_and_never_truncate() -> None:
    pad = _helper(buckets=(4, 8, 16))
    assert pad(_sequences(1, 5), True).shape == (2, 8)
    assert pad(_sequences(4), True).shape == (1, 4)
    assert pad(_sequences(20, 2), True).shape == (2, 20)


def test_a_length_already_on_a_bucket_is_exactly_pad_sequence() -> None:
    sequences = _sequences(4, 2)
    expected = torch.nn.utils.rnn.pad_sequence(sequences, True, 9)
    assert torch.equal(_helper(multiple=4)(sequences, True, 9), expected)


def test_the_migrated_collate_function_runs_and_buckets() -> None:
    source = (
        "from torch.nn.utils.rnn import pad_sequence as ps\n\n\n"
        "def collate(batch):\n"
        "    return ps(batch, batch_first=True, padding_value=-1)\n"
    )
    codes = tuple(rule.code for rule in PadToBuckets.rules)
    migrated = migrate_text(source, "case.py", Settings(select=codes, bucket_multiple=16)).text
    assert HELPER in migrated
    namespace: dict = {}
    exec(compile(migrated, "case.py", "exec"), namespace)
    batch = namespace["collate"](_sequences(3, 11))
    assert batch.shape == (2, 16)
    assert batch[0, 3:].eq(-1).all()
