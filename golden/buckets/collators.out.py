import transformers
from transformers import DataCollatorForLanguageModeling as LMCollator
from transformers import DataCollatorForSeq2Seq, DataCollatorWithPadding

tokenizer = transformers.AutoTokenizer.from_pretrained("t5-small")

classify = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=64)
seq2seq = DataCollatorForSeq2Seq(
    tokenizer,
    model=None,
    label_pad_token_id=-100,
    pad_to_multiple_of=64,
)
causal = LMCollator(tokenizer, mlm=False, pad_to_multiple_of=64)
qualified = transformers.DataCollatorWithPadding(tokenizer, padding="longest", pad_to_multiple_of=64)
