from transformers import AutoTokenizer as AT

tk = AT.from_pretrained("bert-base-uncased")


def encode(texts):
    return tk(texts, padding=True, return_tensors="pt")


def encode_longest(texts, tokenizer):
    return tokenizer.batch_encode_plus(
        texts,
        padding="longest",
        return_tensors="pt",
    )


def collate(features, tokenizer):
    return tokenizer.pad(features, return_tensors="pt")


def already(texts, tokenizer):
    return tokenizer(texts, padding=True, pad_to_multiple_of=8)


def unknown(texts, tokenizer, pad):
    return tokenizer(texts, padding=pad)


class Text:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, text):
        return self.tokenizer.encode_plus(text, padding=True, return_attention_mask=False)


def pairs(pair, tokenizer, options):
    starred = tokenizer(*pair, padding=True)
    hidden = tokenizer(pair[0], pair[1], padding=True, **options)
    return starred, hidden
