from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("gpt2")
collator = DataCollatorWithPadding(tokenizer)  # trncodemod: ignore[TRN213]
batch = tokenizer(["a", "b c"], padding=True)  # noqa: TRN211
