# golden: target=xla-2.5
import transformers


class TrainingArguments(transformers.TrainingArguments):
    model_max_length: int = 512


trainer = transformers.Trainer(model=model, args=args)
