# Twin of zero_dim_summed_loss: what is added to the name starting at 0 is a loss per element
# (`reduction="none"`), and the call indexed is the model's, not a loss: each `.data[0]` is a
# first row, and stays.
import torch.nn as nn

criterion = nn.CrossEntropyLoss(reduction="none")


def train(model, inputs, targets):
    losses = 0
    for c in range(len(inputs)):
        losses += criterion(model(inputs[c]), targets[c])
    return losses.data[0]


def first_row(model, data):
    return model(data).data[0]
