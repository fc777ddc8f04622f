import transformers
from transformers import DataCollatorForLanguageModeling as LMCollator
from transformers import DataCollatorForSeq2Seq, DataCollatorWithPadding

tokenizer = transformers.AutoTokenizer.from_pretrained("t5-small")

classify = DataCollatorWithPadding(tokenizer)
seq2seq = DataCollatorForSeq2Seq(
    tokenizer,
    model=None,
    label_pad_token_id=-100,
)
causal = LMCollator(tokenizer, mlm=False)
qualified = transformers.DataCollatorWithPadding(tokenizer, padding="longest")
