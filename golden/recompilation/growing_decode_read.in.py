# Class: a loop outside the training step that grows a tensor it moved to the device and reads a
# value of each iteration on the host (a greedy decode run in validation: `decoder_input =
# torch.cat([decoder_input, ....to(device)], dim=1)` and `next_word.item()`): each read runs the
# iteration's graph at a new length and compiles another graph (measured by the reviewer on
# XLA:CPU: 40 compiles for two short sentences, against 2 for the whole training). TRN435.
# Twin: growing_decode_read_twin.
import torch


def greedy_decode(model, source, max_len, device):
    memory = model.encode(source)
    decoder_input = torch.empty(1, 1).fill_(1).type_as(source).to(device)
    while True:
        if decoder_input.size(1) == max_len:
            break
        prob = model.project(model.decode(memory, decoder_input)[:, -1])
        _, next_word = torch.max(prob, dim=1)
        decoder_input = torch.cat(
            [decoder_input, torch.empty(1, 1).type_as(source).fill_(next_word.item()).to(device)], dim=1
        )
    return decoder_input.squeeze(0)


def train(model, loader, optimizer, device):
    for batch in loader:
        loss = model(batch.to(device)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(greedy_decode(model, batch[:1].to(device), 32, device))
