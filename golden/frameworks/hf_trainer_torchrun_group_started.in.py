# golden: target=xla-2.9
# Must not fire (twin of hf_trainer_torchrun_group_reported): the script starts the xla process
# group itself under torchrun, so TRN501 says only that the Trainer is kept.
import os

import torch
import torch_xla.distributed.xla_backend  # noqa: F401
from transformers import HfArgumentParser, Trainer, TrainingArguments

if os.environ.get("WORLD_SIZE"):
    torch.distributed.init_process_group("xla")


def main():
    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=None, args=args).train()


if __name__ == "__main__":
    main()
