from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")


def tokenize(batch):
    # padded later by the collator below, which is the one that gets the buckets
    return tokenizer(batch["text"], truncation=True)


collator = DataCollatorWithPadding(tokenizer=tokenizer)
