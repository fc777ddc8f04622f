from torch.nn import MultiheadAttention as MHA


class Attn(MHA):
    pass
