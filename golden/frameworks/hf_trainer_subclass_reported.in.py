# golden: target=xla-2.5
import transformers
from transformers import Trainer


class WeightedTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False):
        return super().compute_loss(model, inputs, return_outputs)


args = transformers.TrainingArguments(output_dir="out", bf16=True, dataloader_drop_last=True)
WeightedTrainer(model=model, args=args).train()
