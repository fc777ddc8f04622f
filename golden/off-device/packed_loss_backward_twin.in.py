# Class: a PackedSequence in a step that runs backward. Twin: the same packing in an evaluation
# that runs no backward (under no_grad the packing runs on the XLA device): nothing to report.
import torch
from torch.nn.utils.rnn import pack_padded_sequence


def validate(encoder, decoder, loader, criterion, device):
    total = 0.0
    with torch.no_grad():
        for imgs, caps, caplens in loader:
            imgs, caps, caplens = imgs.to(device), caps.to(device), caplens.to(device)
            scores, caps_sorted, decode_lengths = decoder(encoder(imgs), caps, caplens)
            scores = pack_padded_sequence(scores, decode_lengths, batch_first=True).data
            targets = pack_padded_sequence(caps_sorted[:, 1:], decode_lengths, batch_first=True).data
            total += criterion(scores, targets).item()
    return total
