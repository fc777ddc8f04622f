# Class: a function of the program that reads a tensor parameter element by element in a Python
# loop on the host (a CTC greedy decode: `t[i] != 0`, `self.character[t[i]]`; an attention
# decode: `for i in text_index[row, :]`), called from an evaluation step with a device tensor
# (evaluate.py): one graph execution and host copy per element (TRN447, reported at the call).
# The twin copies the tensor to the host once, in the function or at the call.
import torch


class CTCConverter:
    def __init__(self, character):
        self.character = ["[blank]", *character]

    def encode(self, text):
        return torch.LongTensor([[self.character.index(c) for c in t] for t in text])

    def decode(self, text_index, length):
        texts = []
        for index, size in enumerate(length):
            t = text_index[index, :]
            chars = []
            for i in range(size):
                if t[i] != 0 and not (i > 0 and t[i - 1] == t[i]):
                    chars.append(self.character[t[i]])
            texts.append("".join(chars))
        return texts


class AttnConverter:
    def __init__(self, character):
        self.character = ["[GO]", "[s]", *character]

    def decode(self, text_index, length):
        return ["".join(self.character[i] for i in text_index[row, :]) for row in range(len(length))]
