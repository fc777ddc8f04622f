# Twin of quantized-model-to-trainer: the same Trainer handed a model loaded in full precision
# by `from_pretrained` in bf16 (no quantization, no device map) and put under a LoRA adapter: the
# Trainer places it on the XLA device, and the entry point runs.
import os

import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

from data import load_data

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


def load_model(name):
    model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16)
    model.gradient_checkpointing_enable()
    return model


def main():
    model = get_peft_model(load_model("facebook/opt-125m"), LoraConfig(r=8))
    trainer = Trainer(
        model=model,
        train_dataset=load_data(),
        args=TrainingArguments(output_dir="out", per_device_train_batch_size=4, dataloader_drop_last=True),
    )
    trainer.train()


if __name__ == "__main__":
    main()
