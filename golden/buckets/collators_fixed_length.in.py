from transformers import (
    AutoTokenizer,
    DataCollatorForLanguageModeling,
    DataCollatorForSeq2Seq,
    DataCollatorWithPadding,
)

tokenizer = AutoTokenizer.from_pretrained("gpt2")

multiple = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8)
fixed = DataCollatorWithPadding(tokenizer, padding="max_length", max_length=128)
no_padding = DataCollatorForSeq2Seq(tokenizer, padding=False)
positional = DataCollatorWithPadding(tokenizer, True, None, 16)
lm = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False, pad_to_multiple_of=64)
