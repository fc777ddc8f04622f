# Twin: packing used only to flatten the batch's own labels for the loss (no recurrent module
# is called on it, and no gradient flows through it: pack_padded_sequence itself runs on XLA
# tensors), the model's outputs selected with a mask, and an LSTM on the padded batch.
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


class Tagger(nn.Module):
    def __init__(self, dim, tags):
        super().__init__()
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, tags)

    def forward(self, x):
        hiddens, _ = self.lstm(x)
        return self.head(hiddens)


def train(model, loader, optimizer, device):
    for inputs, labels, lengths in loader:
        inputs, labels = inputs.to(device), labels.to(device)
        targets = pack_padded_sequence(labels, lengths, batch_first=True)[0]
        mask = torch.arange(inputs.size(1), device=device)[None, :] < lengths.to(device)[:, None]
        outputs = model(inputs).transpose(0, 1)[mask.t()]
        loss = nn.functional.cross_entropy(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
