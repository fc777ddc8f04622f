from transformers import Trainer, TrainingArguments

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=8,
    bf16=True,
    optim="adamw_torch",
    dataloader_drop_last=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds)
trainer.train()
