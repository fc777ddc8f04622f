from transformers import TrainingArguments
from transformers.training_args import OptimizerNames

fused = TrainingArguments("out", optim="adamw_torch_fused", bf16=True)
bnb8 = TrainingArguments(output_dir="out", optim="adamw_bnb_8bit")
paged = TrainingArguments("out", optim=OptimizerNames.PAGED_ADAMW_8BIT)
lion = TrainingArguments("out", optim="lion_8bit")
plain = TrainingArguments("out", optim="adamw_torch")
