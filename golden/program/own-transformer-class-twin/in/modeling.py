from torch import nn


class BertConfig(object):
    def __init__(self, hidden_size=64, vocab_size=128):
        self.hidden_size = hidden_size
        self.vocab_size = vocab_size


class BertLayerNorm(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.norm = nn.LayerNorm(size)

    def forward(self, x):
        return self.norm(x)


# Named for BERT, but no attention anywhere: a bag-of-embeddings baseline, not a transformer.
class BertForPreTraining(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.norm = BertLayerNorm(config.hidden_size)
        self.head = nn.Linear(config.hidden_size, config.vocab_size)

    def forward(self, ids):
        return self.head(self.norm(self.embeddings(ids)))
