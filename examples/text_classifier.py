"""A sentiment classifier over synthetic sentences, with a small tokenizer pipeline of its own.

Demonstrates the text-side patterns trncodemod has to deal with: a vocabulary and whitespace
tokenisation, variable-length sequences padded per batch by a `collate_fn` that uses
`pad_sequence(batch_first=True, padding_value=PAD)` and returns a mask (so every batch has a
new length: a new XLA graph), an embedding model that mean-pools over the mask,
`torch.optim.AdamW(..., fused=True)`, `.item()` on every step for logging, and separate train
and eval DataLoaders.

Runs on CPU without downloads:  python examples/text_classifier.py --steps 3
"""

import argparse
import os
import random
import tempfile
from collections import Counter

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

PAD, UNK = 0, 1
POSITIVE = "good great excellent lovely superb enjoyable fine wonderful".split()
NEGATIVE = "bad awful terrible boring poor dull horrible weak".split()
FILLER = "the a movie film plot actors it was and very story really quite some this".split()


def make_sentences(count, rng):
    sentences = []
    for _ in range(count):
        label = rng.randint(0, 1)
        words = rng.choices(FILLER, k=rng.randint(4, 40))
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randrange(len(words)), rng.choice(POSITIVE if label else NEGATIVE))
        sentences.append((" ".join(words), label))
    return sentences


class Vocab:
    def __init__(self, texts):
        counts = Counter(word for text in texts for word in self.tokenize(text))
        self.itos = ["<pad>", "<unk>"] + sorted(counts)
        self.stoi = {word: index for index, word in enumerate(self.itos)}

    @staticmethod
    def tokenize(text):
        return text.lower().split()

    def encode(self, text):
        return [self.stoi.get(word, UNK) for word in self.tokenize(text)]

    def __len__(self):
        return len(self.itos)


class SentenceDataset(Dataset):
    def __init__(self, sentences, vocab):
        self.items = [(vocab.encode(text), label) for text, label in sentences]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        ids, label = self.items[index]
        return torch.tensor(ids, dtype=torch.long), label


def collate_batch(batch):
    sequences, labels = zip(*batch)
    ids = pad_sequence(sequences, batch_first=True, padding_value=PAD)
    mask = ids != PAD
    lengths = torch.tensor([len(s) for s in sequences])
    return ids, mask, lengths, torch.tensor(labels)


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab_size, dim=64, num_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim, padding_idx=PAD)
        self.encoder = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.LayerNorm(dim))
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(dim, num_classes))

    def forward(self, ids, mask):
        hidden = self.encoder(self.embedding(ids))
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)
        return self.head(pooled)


def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for ids, mask, _lengths, labels in loader:
            ids, mask, labels = ids.to(device), mask.to(device), labels.to(device)
            logits = model(ids, mask)
            correct += (logits.argmax(dim=-1) == labels).sum().item()
            total += labels.size(0)
    model.train()
    return correct / total


def main():
    parser = argparse.ArgumentParser(description="Text classifier on synthetic sentences")
    parser.add_argument("--steps", type=int, default=30, help="training batches")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--eval-batches", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--log-interval", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="folder for the checkpoint (default: temp)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_sentences = make_sentences(args.steps * args.batch_size, rng)
    eval_sentences = make_sentences(args.eval_batches * args.batch_size, rng)
    vocab = Vocab(text for text, _ in train_sentences)
    train_loader = DataLoader(
        SentenceDataset(train_sentences, vocab),
        batch_size=args.batch_size,
        shuffle=True,
        collate_fn=collate_batch,
    )
    eval_loader = DataLoader(
        SentenceDataset(eval_sentences, vocab), batch_size=args.batch_size, collate_fn=collate_batch
    )

    model = MeanPoolClassifier(len(vocab)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01, fused=True)
    loss_fn = nn.CrossEntropyLoss()

    total_loss, train_correct, seen = 0.0, 0, 0
    for step, (ids, mask, lengths, labels) in enumerate(train_loader):
        ids, mask, labels = ids.to(device), mask.to(device), labels.to(device)
        logits = model(ids, mask)
        loss = loss_fn(logits, labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

        total_loss += loss.item()
        train_correct += (logits.argmax(dim=-1) == labels).sum().item()
        seen += labels.size(0)
        if step % args.log_interval == 0:
            print(f"step {step:4d} | loss {loss.item():.4f} | longest {int(lengths.max())}")

    print(f"train loss {total_loss / len(train_loader):.4f} | train acc {train_correct / seen:.3f}")
    print(f"eval acc {evaluate(model, eval_loader, device):.3f}")

    out = args.out or tempfile.mkdtemp(prefix="text_classifier_")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "classifier.pt")
    torch.save({"model": model.state_dict(), "vocab": vocab.itos}, path)
    print(f"Saved {path}")


if __name__ == "__main__":
    main()
