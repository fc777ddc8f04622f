from torch import nn


class GPT(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight  # weight tying

    @classmethod
    def from_pretrained(cls, name):
        return cls(32, 8)

    def forward(self, idx):
        return self.lm_head(self.wte(idx))
