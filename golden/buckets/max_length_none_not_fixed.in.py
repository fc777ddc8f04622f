import torch
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")


def collate(batch):
    # max_length=None is the model's maximum (512), not a length this script chose.
    return tokenizer(
        [b["text"] for b in batch],
        padding=True,
        truncation=True,
        max_length=None,
        return_tensors="pt",
    )


loader = torch.utils.data.DataLoader(dataset, batch_size=32, collate_fn=collate, drop_last=True)
