"""A tiny token model trained on padded sequences; padded label positions are -100, which
CrossEntropyLoss ignores (fault injection: pad the labels with the pad id instead)."""

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

PAD = 0
VOCAB = 12


def batches(steps):
    generator = torch.Generator().manual_seed(1)
    for _ in range(steps):
        lengths = torch.randint(2, 7, (4,), generator=generator)
        seqs = [torch.randint(1, VOCAB, (int(n),), generator=generator) for n in lengths]
        inputs = pad_sequence(seqs, batch_first=True, padding_value=PAD)
        labels = pad_sequence(seqs, batch_first=True, padding_value=-100)
        yield inputs, labels


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Embedding(VOCAB, 8), nn.Linear(8, VOCAB)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    criterion = nn.CrossEntropyLoss()
    for step, (inputs, labels) in enumerate(batches(4)):
        inputs, labels = inputs.to(device), labels.to(device)
        logits = model(inputs)
        loss = criterion(logits.view(-1, VOCAB), labels.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 2 == 0:
            print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
