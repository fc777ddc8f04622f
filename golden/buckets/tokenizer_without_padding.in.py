from datasets import load_dataset
from transformers import AutoTokenizer, Trainer

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
dataset = load_dataset("imdb")


def tokenize(batch):
    return tokenizer(batch["text"], truncation=True)


tokenized = dataset.map(tokenize, batched=True)
trainer = Trainer(model=None, train_dataset=tokenized["train"], processing_class=tokenizer)
