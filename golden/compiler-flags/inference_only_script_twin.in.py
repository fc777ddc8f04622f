# Twin of inference_only_script: a script that evaluates the model and also hands it to a
# training function (imported, out of sight) may train it: the flag is added.
import argparse

from finetune import train_model
from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("model_path")
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(args.model_path)
    model = AutoModelForCausalLM.from_pretrained(args.model_path)
    train_model(model, tokenizer)
    model.eval()
    pipe = pipeline("text-generation", model=model, tokenizer=tokenizer, max_length=128)
    print(pipe("### HUMAN:\nHello\n\n### RESPONSE:\n"))
