"""An encoder-decoder that shares its encoder's embedding module with its decoder when asked."""

from torch import nn


class Embedder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.token_emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.out(self.token_emb(x))


class EncoderDecoder(nn.Module):
    def __init__(self, vocab=32, dim=16, tie_token_emb=False):
        super().__init__()
        self.encoder = Embedder(vocab, dim)
        self.decoder = Embedder(vocab, dim)
        if tie_token_emb:
            self.decoder.token_emb = self.encoder.token_emb

    def forward(self, src, tgt):
        return self.decoder(tgt) + self.encoder(src)
