import torch_xla
from nets.gpt import GPT


def fresh():
    model = GPT(32, 8).to(torch_xla.device())
    return model


def resumed(init_from):
    if init_from == "scratch":
        model = GPT(32, 8)
    else:
        model = GPT.from_pretrained(init_from)
    model.to(torch_xla.device())
    return model
