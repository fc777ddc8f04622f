# golden: target=xla-2.5
import sys

from optimum.neuron import NeuronHfArgumentParser as HfArgumentParser
from optimum.neuron import Seq2SeqNeuronTrainer as Seq2SeqTrainer
from optimum.neuron import Seq2SeqNeuronTrainingArguments as Seq2SeqTrainingArguments
from transformers import (
    AutoModelForSeq2SeqLM,
    set_seed,
)


def main():
    parser = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments))
    model_args, training_args = parser.parse_args_into_dataclasses()
    set_seed(training_args.seed)
    model = AutoModelForSeq2SeqLM.from_pretrained(model_args.model_name_or_path)
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_dataset)
    trainer.train()
    metrics = trainer.evaluate(metric_key_prefix="eval")


if __name__ == "__main__":
    sys.exit(main())
