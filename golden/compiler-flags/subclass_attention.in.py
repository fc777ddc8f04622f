from torch.nn import MultiheadAttention as MHA


class Attn(MHA):
    pass


if __name__ == "__main__":
    layer = Attn(64, 4)
