# golden: buckets=128,256,512
"""Explicit bucket list: pad_sequence pads to the next listed size; HF padding cannot say it."""

import torch
from torch.nn.utils.rnn import pad_sequence as ps
from transformers import AutoTokenizer, DataCollatorWithPadding


def _pad_to_bucket(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to the next of 128, 256, 512 (a longer batch keeps its length).

    Batch shapes repeat, so each compiles once (trncodemod TRN214).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    bucket = next((size for size in (128, 256, 512) if size >= length), length)
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)


tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
collator = DataCollatorWithPadding(tokenizer)


def encode(texts):
    return tokenizer(texts, padding=True)


def one_bucket(texts):
    return tokenizer(texts, padding="max_length", truncation=True, max_length=512)


class Collator:
    def __call__(self, batch):
        return _pad_to_bucket(batch, True, 0)
