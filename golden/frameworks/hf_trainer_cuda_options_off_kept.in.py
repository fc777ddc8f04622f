# golden: target=neuron
import transformers

args = transformers.TrainingArguments(
    "out", bf16=True, tf32=False, deepspeed=None, dataloader_drop_last=True
)
