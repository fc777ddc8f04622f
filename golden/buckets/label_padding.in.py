import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from transformers import AutoTokenizer, DataCollatorForSeq2Seq

tokenizer = AutoTokenizer.from_pretrained("t5-small")
criterion = nn.CrossEntropyLoss(ignore_index=-1)
seq2seq = DataCollatorForSeq2Seq(tokenizer, label_pad_token_id=0, pad_to_multiple_of=64)


def collate(batch):
    inputs = pad_sequence([b["input_ids"] for b in batch], batch_first=True)
    targets = pad_sequence([b["labels"] for b in batch], batch_first=True)
    tags = pad_sequence([b["tags"] for b in batch], batch_first=True, padding_value=-1)
    return inputs, targets, tags
