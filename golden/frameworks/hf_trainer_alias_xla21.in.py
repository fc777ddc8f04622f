# golden: target=xla-2.1
from transformers import Trainer as HFTrainer, TrainingArguments, set_seed

args = TrainingArguments(output_dir="out", bf16=True, dataloader_drop_last=True)
HFTrainer(model=model, args=args, train_dataset=train_ds).train()
