import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from transformers import AutoTokenizer, DataCollatorForSeq2Seq


def _pad_to_bucket(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to the next multiple of 64.

    Batch shapes repeat, so each compiles once (trncodemod TRN214).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    bucket = -(-length // 64) * 64
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)


tokenizer = AutoTokenizer.from_pretrained("t5-small")
criterion = nn.CrossEntropyLoss(ignore_index=-1)
seq2seq = DataCollatorForSeq2Seq(tokenizer, label_pad_token_id=0, pad_to_multiple_of=64)


def collate(batch):
    inputs = _pad_to_bucket([b["input_ids"] for b in batch], batch_first=True)
    targets = _pad_to_bucket([b["labels"] for b in batch], batch_first=True)
    tags = _pad_to_bucket([b["tags"] for b in batch], batch_first=True, padding_value=-1)
    return inputs, targets, tags
