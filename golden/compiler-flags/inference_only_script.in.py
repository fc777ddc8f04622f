# Class: an inference script (it loads a transformer and generates; nothing in it or reached from
# it trains) gets no `--model-type` compiler flag: the flag tunes the compilation of a training
# graph, and there is none (twin: inference_only_script_twin).
import argparse

from transformers import AutoModelForCausalLM, AutoTokenizer, pipeline

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("model_path")
    args = parser.parse_args()
    tokenizer = AutoTokenizer.from_pretrained(args.model_path)
    model = AutoModelForCausalLM.from_pretrained(args.model_path)
    model.eval()
    pipe = pipeline("text-generation", model=model, tokenizer=tokenizer, max_length=128)
    print(pipe("### HUMAN:\nHello\n\n### RESPONSE:\n"))
