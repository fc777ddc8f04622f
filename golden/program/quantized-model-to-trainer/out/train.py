# Class: a model loaded quantized by bitsandbytes (4-bit config, 8-bit flag) onto a CUDA device
# index, prepared by peft and handed to an HF Trainer. The Trainer owns the loop, but what it
# trains has no kernels on the target: the entry point does not run, and the cause is the load.
import os

import torch
from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

from data import load_data

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


def load_model(name):
    config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
    model = AutoModelForCausalLM.from_pretrained(
        name, quantization_config=config, device_map={"": 0}
    )
    model.gradient_checkpointing_enable()
    return prepare_model_for_kbit_training(model)


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
