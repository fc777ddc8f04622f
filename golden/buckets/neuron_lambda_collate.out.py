# golden: target=neuron bucket-multiple=32
import torch as th
from torch.utils.data import DataLoader

dataset = [th.ones(n) for n in range(1, 40)]
train_loader = DataLoader(
    dataset,
    batch_size=4,
    shuffle=True,
    collate_fn=lambda batch: th.nn.utils.rnn.pad_sequence(batch, batch_first=True),
    drop_last=True,
)
