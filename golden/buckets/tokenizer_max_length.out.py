from transformers import BertTokenizerFast

bert = BertTokenizerFast.from_pretrained("bert-base-uncased")


def explicit(batch):
    return bert(batch["text"], padding="max_length", truncation=True, max_length=128)


def implicit(batch):
    # max_length without padding or truncation truncates (HF "longest_first"): kept explicit
    return bert(batch["text"], max_length=256, padding="max_length", truncation=True)


def fixed(batch):
    return bert(batch["text"], padding="max_length", truncation=True, max_length=128)


def not_truncated(batch):
    # padding=True ignores max_length without truncation: "max_length" could leave rows longer
    return bert(batch["text"], padding=True, max_length=128, pad_to_multiple_of=64)
