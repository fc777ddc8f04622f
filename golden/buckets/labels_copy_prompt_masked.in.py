# Per-example tokenization whose labels copy the input ids with only the prompt masked: padding
# the tokenizer would put pad tokens into the labels and train the loss on them, so its padding
# is kept and the label line named (TRN211); where the tokenizer already pads, the label line is
# reported (TRN218).
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")


def tokenize(example):
    prompt = example["instruction"] + "\n"
    prompt_len = len(tokenizer(prompt)["input_ids"])
    enc = tokenizer(prompt + example["output"], truncation=True, max_length=512, padding="longest")
    input_ids = enc["input_ids"]
    labels = input_ids.copy()
    labels[:prompt_len] = -100
    return {"input_ids": input_ids, "attention_mask": enc["attention_mask"], "labels": labels}


def tokenize_padded(example):
    enc = tokenizer(example["text"], truncation=True, max_length=256, padding="max_length")
    enc["labels"] = enc["input_ids"].copy()
    return enc


def tokenize_targets(batch):
    model_inputs = tokenizer(batch["source"], truncation=True, max_length=128)
    labels = tokenizer(text_target=batch["target"], padding=True)
    model_inputs["labels"] = labels["input_ids"]
    return model_inputs


train_ds = raw.map(tokenize)
