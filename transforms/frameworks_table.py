"""What the ``frameworks`` pass knows about optimum-neuron and accelerate releases, as data;
``frameworks.py`` interprets it.

optimum-neuron's trainers by target, from its tags' ``setup.py``/``pyproject.toml`` (the
``neuronx`` extra pins one torch-neuronx) and ``optimum/neuron/__init__.py``
(huggingface/optimum-neuron, mirror of 2026-08-19):

- 0.0.24–0.0.28 pin torch-neuronx 2.1.2 (target xla-2.1); 0.1.0–0.2.2 pin 2.5.1 (xla-2.5's
  torch); 0.3.0 pins 2.7.0. All of them export `NeuronTrainer`, `Seq2SeqNeuronTrainer`,
  `NeuronTrainingArguments`, `Seq2SeqNeuronTrainingArguments` and `NeuronHfArgumentParser`, and
  their trainers subclass transformers' `Trainer`/`Seq2SeqTrainer` (evaluation included).
- 0.4.0–0.4.5 pin torch-neuronx 2.8.0 (SDK 2.26); "Trainer simplification" (#938, 2025-09)
  dropped the Seq2Seq classes, and `NeuronTrainer` no longer subclasses `Trainer`: it raises on
  `eval_dataset`, `evaluate`, `predict` and `resume_from_checkpoint`.
- No release pins torch-neuronx 2.9 (target xla-2.9).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OptimumRelease:
    pin: str  # what to install beside the target's torch-neuronx
    torch_neuronx: str
    transformers: str  # the transformers that release pins


# The optimum-neuron release whose trainers the rewrite targets, by trncodemod target.
OPTIMUM_NEURON = {
    "xla-2.1": OptimumRelease("optimum-neuron==0.0.28", "2.1.2", "~=4.48.1"),
    "xla-2.5": OptimumRelease("optimum-neuron==0.2.2", "2.5.1", "~=4.51.0"),
}
LATEST_OPTIMUM = "optimum-neuron 0.4.5 (torch-neuronx 2.8.0, Neuron SDK 2.26.1)"

# transformers' trainer API (imported `from transformers import ...`) → optimum-neuron's.
NEURON_NAMES = {
    "Trainer": "NeuronTrainer",
    "Seq2SeqTrainer": "Seq2SeqNeuronTrainer",
    "TrainingArguments": "NeuronTrainingArguments",
    "Seq2SeqTrainingArguments": "Seq2SeqNeuronTrainingArguments",
}
# Swapped with the arguments: optimum-neuron parses its own argument classes with it.
PARSER = {"HfArgumentParser": "NeuronHfArgumentParser"}
TRANSFORMERS_TRAINER = frozenset(f"transformers.{name}" for name in NEURON_NAMES)
OPTIMUM_MODULE = "optimum.neuron"

# accelerate renamed `DistributedType.TPU` to `XLA` in 0.28.0 (#2176, 2024-02; TPU kept as a
# deprecated alias) and removed `TPU` in 1.0.0 (#3118, 2024-09): `DistributedType.TPU` is an
# AttributeError with the accelerate Neuron requires for torch-xla 2.7+ (1.7, matrix.toml).
DISTRIBUTED_TYPE = frozenset(
    {
        "accelerate.DistributedType",
        "accelerate.utils.DistributedType",
        "accelerate.utils.dataclasses.DistributedType",
        "accelerate.state.DistributedType",
    }
)
# Targets whose torch-neuronx releases all postdate accelerate 0.28 (the `XLA` member).
ACCELERATE_XLA_TARGETS = frozenset({"xla-2.5", "xla-2.9"})
