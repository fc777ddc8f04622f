# qlora's collator: the source and the target are tokenized apart and joined per example.
# Padded to max_length, the pads would land between prompt and answer, so neither tokenizer
# call changes (the pad_sequence after the join is what TRN214 buckets). The twin, `encode`,
# pads ids that are used as they come: there the padding changes as usual (TRN211).
import torch
from torch.nn.utils.rnn import pad_sequence
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("huggyllama/llama-7b")


def _pad_to_bucket(sequences, batch_first=False, padding_value=0.0):
    """pad_sequence, then pad the time dimension with padding_value
    up to the next multiple of 64.

    Batch shapes repeat, so each compiles once (trncodemod TRN214).
    """
    padded = torch.nn.utils.rnn.pad_sequence(
        sequences, batch_first=batch_first, padding_value=padding_value
    )
    time_dim = 1 if batch_first else 0
    length = padded.shape[time_dim]
    bucket = -(-length // 64) * 64
    if bucket == length:
        return padded
    widths = (0, 0) * (padded.dim() - 1 - time_dim) + (0, bucket - length)
    return torch.nn.functional.pad(padded, widths, value=padding_value)


def collate(instances, source_max_len=256, target_max_len=128):
    sources = [f"{tokenizer.bos_token}{example['input']}" for example in instances]
    targets = [f"{example['output']}{tokenizer.eos_token}" for example in instances]
    tokenized_sources = tokenizer(sources, max_length=source_max_len, truncation=True)
    tokenized_targets = tokenizer(targets, max_length=target_max_len, truncation=True)
    input_ids = []
    for source, target in zip(tokenized_sources["input_ids"], tokenized_targets["input_ids"]):
        input_ids.append(torch.tensor(source + target))
    input_ids = _pad_to_bucket(input_ids, batch_first=True, padding_value=tokenizer.pad_token_id)
    return {"input_ids": input_ids, "attention_mask": input_ids.ne(tokenizer.pad_token_id)}


def encode(batch):
    return tokenizer(batch["text"], max_length=128, truncation=True, padding="max_length")
