import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


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


def collate_batch(batch):
    tokens = _pad_to_bucket([item[0] for item in batch], batch_first=True, padding_value=1)
    labels = _pad_to_bucket([item[1] for item in batch], batch_first=True, padding_value=-100)
    return tokens, labels


def time_major(batch):
    frames = [item[0] for item in batch]  # each (time, features)
    return _pad_to_bucket(frames), torch.tensor([len(f) for f in batch])


def encode_model_side(x):
    # not a collate function: reported, not rewritten
    return pad_sequence(x, batch_first=True)


speech = DataLoader([], batch_size=8, collate_fn=time_major)
