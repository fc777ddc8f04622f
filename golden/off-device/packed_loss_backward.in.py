# Class: a decoder's scores packed to drop the padding before the loss, in a step that runs
# backward: on the XLA device the packing's backward raises ("its data is not allocated yet"),
# so the step stops (TRN062, a blocker, once a step). Measured in benchmarks/xla_facts.py
# `packed_sequences`.
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence


def train(encoder, decoder, loader, optimizer, criterion, device):
    for imgs, caps, caplens in loader:
        imgs, caps, caplens = imgs.to(device), caps.to(device), caplens.to(device)
        scores, caps_sorted, decode_lengths = decoder(encoder(imgs), caps, caplens)
        targets = caps_sorted[:, 1:]
        scores = pack_padded_sequence(scores, decode_lengths, batch_first=True).data
        targets = pack_padded_sequence(targets, decode_lengths, batch_first=True).data
        loss = criterion(scores, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
