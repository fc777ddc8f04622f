import transformers

args = transformers.Seq2SeqTrainingArguments(
    "out", fp16=cli.fp16, dataloader_drop_last=False, half_precision_backend="apex"
)
config = transformers.TrainingArguments(**vars(cli))
