from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="fp16", gradient_accumulation_steps=4)
