# Twin of masked_transformer_collate: an LSTM encoder-decoder (its final state is the whole
# context) fed by a collate function that pads to the batch's longest. More pads would change
# the final state, and `ignore_index` in the loss does not help it: TRN214 reports, no rewrite.
import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

PAD_IDX = 1


class Encoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim)

    def forward(self, src):
        _, (hidden, cell) = self.rnn(self.embed(src))
        return hidden, cell


def collate(batch):
    src = pad_sequence([item["src"] for item in batch], padding_value=PAD_IDX)
    trg = pad_sequence([item["trg"] for item in batch], padding_value=PAD_IDX)
    return {"src": src, "trg": trg}


criterion = nn.CrossEntropyLoss(ignore_index=PAD_IDX)
loader = DataLoader([], batch_size=1, collate_fn=collate)
