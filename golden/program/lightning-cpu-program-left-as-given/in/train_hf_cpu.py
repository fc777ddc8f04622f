# The same class with transformers' Trainer told to train on the CPU (`use_cpu=True`).
import torch
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

from model import dataset

if __name__ == "__main__":
    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    args = TrainingArguments(output_dir="out", use_cpu=True)
    Trainer(model=model, args=args, train_dataset=dataset()).train()
    torch.save(model.state_dict(), "bert.pth")
