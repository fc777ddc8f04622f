"""What the ``buckets`` pass recognises, as data: tokenizer methods and collators with where their
padding arguments sit, ``pad_sequence``, the DataLoader classes and the wrappers a loop iterates
them through, the losses that ignore padded labels, and the names that tell a training loader
from an evaluation one. ``buckets.py`` interprets it.
"""

from __future__ import annotations

import re

# Tokenizer method → (position of `padding` when passed positionally, default padding).
TOKENIZER_METHODS = {
    "__call__": (5, False),
    "encode_plus": (3, False),
    "batch_encode_plus": (2, False),
    "pad": (1, True),
}
TOKENIZER_NAMES = ("tokenizer", "tok")
TOKENIZER_CLASS = re.compile(r"Tokenizer")

# Collator → (position of `padding` or None, position of `pad_to_multiple_of`, safe positionals).
COLLATORS = {
    "DataCollatorWithPadding": (1, 3, 3),
    "DataCollatorForSeq2Seq": (2, 4, 4),
    # pad_to_multiple_of's position moved between transformers releases.
    "DataCollatorForLanguageModeling": (None, None, 3),
}
COLLATOR_MODULES = ("transformers", "transformers.data.data_collator")
COLLATOR_NAMES = tuple(f"{module}.{name}" for module in COLLATOR_MODULES for name in COLLATORS)

PAD_SEQUENCE = {"torch.nn.utils.rnn.pad_sequence"}
# Recurrent modules: their final state is taken after every step, pads included, so padding a
# batch further changes what they compute whatever mask the loss or attention applies.
RECURRENT = {
    f"torch.nn.{name}" for name in ("LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell")
}
# Keywords and keys a mask of the padded positions is handed to a model under.
MASK_NAMES = frozenset(
    {
        "attention_mask",
        "key_padding_mask",
        "src_key_padding_mask",
        "tgt_key_padding_mask",
        "memory_key_padding_mask",
    }
)
# A comparison with one of these builds a mask of the pads (`src != self.src_pad_idx`).
PAD_INDEX = re.compile(r"pad_?(idx|index|token_id|id)\b", re.IGNORECASE)
PAD_SEQUENCE_PARAMS = ("sequences", "batch_first", "padding_value")
DATALOADER = {"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"}
LOSSES = {
    "torch.nn.CrossEntropyLoss",
    "torch.nn.NLLLoss",
    "torch.nn.functional.cross_entropy",
    "torch.nn.functional.nll_loss",
}
DEFAULT_IGNORE_INDEX = -100
# Calls a loop iterates that hand out the batches of their first argument.
LOADER_WRAPPERS = ("enumerate", "tqdm", "MpDeviceLoader", "ParallelLoader")

TRAIN_NAME = re.compile(r"train", re.IGNORECASE)
EVAL_NAME = re.compile(
    r"(^|_)(val|valid|validation|eval|evaluation|test|testing|dev)(_|loader|dl|data|set|ds|$)",
    re.IGNORECASE,
)
LABELS = re.compile(r"label|target", re.IGNORECASE)
