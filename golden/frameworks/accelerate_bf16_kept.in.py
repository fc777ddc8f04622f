from accelerate import Accelerator

accelerator = Accelerator(mixed_precision="bf16")
other = Accelerator(mixed_precision=args.mixed_precision)
