import transformers


def build(model):
    # BERT's TF recipe: no bias correction, which torch.optim.AdamW cannot do.
    return transformers.AdamW(model.parameters(), lr=1e-4, correct_bias=False)
