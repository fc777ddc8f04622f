# golden: target=xla-2.9
from accelerate import Accelerator, DistributedType

accelerator = Accelerator()


def collate_fn(examples):
    if accelerator.distributed_type == DistributedType.TPU:
        return tokenizer.pad(examples, padding="max_length", max_length=128, return_tensors="pt")
    return tokenizer.pad(examples, padding="longest", return_tensors="pt")
