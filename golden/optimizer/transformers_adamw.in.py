import torch
from transformers import AdamW, get_linear_schedule_with_warmup


def build(model, steps):
    optimizer = AdamW(model.parameters(), lr=5e-5)
    scheduler = get_linear_schedule_with_warmup(optimizer, 0, steps)
    return optimizer, scheduler


def build_bert(model):
    return AdamW(model.parameters(), lr=1e-4, eps=1e-8, weight_decay=0.01, no_deprecation_warning=True)
