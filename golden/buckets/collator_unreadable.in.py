from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("gpt2")
options = {"padding": "longest"}

from_kwargs = DataCollatorWithPadding(tokenizer, **options)
from_variable = DataCollatorWithPadding(tokenizer, padding=options["padding"])
