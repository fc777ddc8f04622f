# golden: target=xla-2.9
from transformers import HfArgumentParser, Trainer, TrainingArguments

parser = HfArgumentParser(TrainingArguments)
(training_args,) = parser.parse_args_into_dataclasses()
Trainer(model=model, args=training_args, train_dataset=train_ds).train()
