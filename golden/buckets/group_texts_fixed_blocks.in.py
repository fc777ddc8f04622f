from itertools import chain

from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
block_size = 1024


def tokenize_function(examples):
    return tokenizer(examples["text"])


def group_texts(examples):
    # Every example becomes a block of exactly block_size tokens: no padding needed.
    concatenated = {k: list(chain(*examples[k])) for k in examples.keys()}
    total_length = (len(concatenated["input_ids"]) // block_size) * block_size
    result = {
        k: [t[i : i + block_size] for i in range(0, total_length, block_size)]
        for k, t in concatenated.items()
    }
    result["labels"] = result["input_ids"].copy()
    return result


tokenized = raw_datasets.map(tokenize_function, batched=True, remove_columns=["text"])
lm_datasets = tokenized.map(group_texts, batched=True)
