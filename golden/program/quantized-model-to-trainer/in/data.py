from datasets import load_dataset


def load_data():
    return load_dataset("imdb", split="train")
