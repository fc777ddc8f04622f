# Must not fire: the decoders of element-reads-of-device-tensor where nothing reads a device
# tensor element by element: the evaluation step copies the indices with `.cpu()` before
# `decode`, `first` copies its parameter to the host (`.tolist()`) before its loop, and
# `torch.IntTensor([...])` is made on the host. The `.cpu()` at the call is not TRN403 either:
# it is TRN447's fix. The case that fires is element-reads-of-device-tensor.
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

    def first(self, text_index):
        rows = text_index.tolist()
        return [self.character[row[0]] for row in rows if row[0] != 0]


class AttnConverter:
    def __init__(self, character):
        self.character = ["[GO]", "[s]", *character]

    def decode(self, text_index, length):
        return ["".join(self.character[i] for i in text_index[row, :]) for row in range(len(length))]

    def first(self, text_index):
        return [self.character[i] for i in text_index[:, 0].cpu()]
