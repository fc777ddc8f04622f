# golden: target=xla-2.9
# Class: an entry script that keeps transformers' Trainer (xla-2.9: no optimum-neuron release)
# and starts no process group: TRN501 also says to start the xla process group at import for
# torchrun, as Neuron's samples that keep the Trainer do (accelerate starts none for xla).
from transformers import HfArgumentParser, Trainer, TrainingArguments


def main():
    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=None, args=args).train()


if __name__ == "__main__":
    main()
