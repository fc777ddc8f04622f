import torch
from mylib import Trainer, TrainingArguments

args = TrainingArguments(fp16=True)
trainer = Trainer(accelerator="gpu")
