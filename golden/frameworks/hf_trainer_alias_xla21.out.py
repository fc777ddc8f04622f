# golden: target=xla-2.1
from optimum.neuron import NeuronTrainer as HFTrainer
from optimum.neuron import NeuronTrainingArguments as TrainingArguments
from transformers import set_seed

args = TrainingArguments(output_dir="out", bf16=True, dataloader_drop_last=True)
HFTrainer(model=model, args=args, train_dataset=train_ds).train()
