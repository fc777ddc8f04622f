# golden: target=neuron bucket-multiple=32
import torch
import torch as th
from torch.utils.data import DataLoader


def _pad_to_bucket(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to the next multiple of 32.

    Batch shapes repeat, so each compiles once (trncodemod TRN214).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    bucket = -(-length // 32) * 32
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)


dataset = [th.ones(n) for n in range(1, 40)]
train_loader = DataLoader(
    dataset,
    batch_size=4,
    collate_fn=lambda batch: _pad_to_bucket(batch, batch_first=True),
    drop_last=True,
)
