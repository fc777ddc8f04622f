# golden: buckets=128,256,512
"""Explicit bucket list: pad_sequence pads to the next listed size; HF padding cannot say it."""

from torch.nn.utils.rnn import pad_sequence as ps
from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
collator = DataCollatorWithPadding(tokenizer)


def encode(texts):
    return tokenizer(texts, padding=True)


def one_bucket(texts):
    return tokenizer(texts, padding="max_length", truncation=True, max_length=512)


class Collator:
    def __call__(self, batch):
        return ps(batch, True, 0)
