import transformers

args = transformers.TrainingArguments(
    "out",
    bf16=True,
    tf32=True,
    ddp_backend="nccl",
    deepspeed="ds_config.json",
    dataloader_drop_last=True,
)
