from transformers import TrainingArguments
from transformers.training_args import OptimizerNames

fused = TrainingArguments("out", optim="adamw_torch_xla", bf16=True)
bnb8 = TrainingArguments(output_dir="out", optim="adamw_torch_xla")
paged = TrainingArguments("out", optim=OptimizerNames.ADAMW_TORCH_XLA)
lion = TrainingArguments("out", optim="lion_8bit")
plain = TrainingArguments("out", optim="adamw_torch")
