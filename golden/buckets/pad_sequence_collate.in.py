import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader


def collate_batch(batch):
    tokens = pad_sequence([item[0] for item in batch], batch_first=True, padding_value=1)
    labels = pad_sequence([item[1] for item in batch], batch_first=True, padding_value=-100)
    return tokens, labels


def time_major(batch):
    frames = [item[0] for item in batch]  # each (time, features)
    return torch.nn.utils.rnn.pad_sequence(frames), torch.tensor([len(f) for f in batch])


def encode_model_side(x):
    # not a collate function: reported, not rewritten
    return pad_sequence(x, batch_first=True)


speech = DataLoader([], batch_size=8, collate_fn=time_major)
