# Labels copied from the input ids whose pad positions are set to the ignore index: the
# tokenizer's padding changes as usual (TRN211), and so it does where the labels are not made
# from the tokenizer's ids at all.
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def tokenize(example):
    prompt_len = len(tokenizer(example["instruction"])["input_ids"])
    enc = tokenizer(example["text"], truncation=True, max_length=512, padding="max_length")
    labels = list(enc["input_ids"])
    labels[:prompt_len] = [-100] * prompt_len
    labels = [-100 if t == tokenizer.pad_token_id else t for t in labels]
    enc["labels"] = labels
    return enc


def tokenize_classes(batch):
    enc = tokenizer(batch["text"], padding="max_length", truncation=True, max_length=128)
    enc["labels"] = batch["label"]
    return enc


train_ds = raw.map(tokenize)
