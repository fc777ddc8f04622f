# Class: a recurrent module whose class is chosen through a local name (`rnn = nn.GRU` in one
# branch, `rnn = nn.LSTM` in another, then `self.encoder_rnn = rnn(...)`), called on a
# PackedSequence: it raises on the XLA device as `nn.GRU(...)` built directly does (TRN028;
# measured, benchmarks/xla_facts.py packed_sequences). Found at first sight in a sentence VAE,
# which the tool had ported and which crashed at its first step. Twin:
# packed_rnn_class_alias_twin.
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence


class SentenceVAE(nn.Module):
    def __init__(self, rnn_type, embedding_size, hidden_size):
        super().__init__()
        if rnn_type == "rnn":
            rnn = nn.RNN
        elif rnn_type == "gru":
            rnn = nn.GRU
        elif rnn_type == "lstm":
            rnn = nn.LSTM
        else:
            raise ValueError(rnn_type)
        self.embedding = nn.Embedding(100, embedding_size)
        self.encoder_rnn = rnn(embedding_size, hidden_size, batch_first=True)

    def forward(self, input_sequence, length):
        input_embedding = self.embedding(input_sequence)
        packed_input = pack_padded_sequence(input_embedding, length.tolist(), batch_first=True)
        _, hidden = self.encoder_rnn(packed_input)
        return hidden
