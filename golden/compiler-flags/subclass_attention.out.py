import os

from torch.nn import MultiheadAttention as MHA

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


class Attn(MHA):
    pass


if __name__ == "__main__":
    layer = Attn(64, 4)
