from transformers import Trainer, TrainingArguments

args = TrainingArguments("out", bf16=True, dataloader_drop_last=True)
trainer = Trainer(model=model, args=args, train_dataset=train_ds)
trainer.train()
