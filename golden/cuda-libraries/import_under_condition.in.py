# Class: an import of a library that needs CUDA under a condition the launch may or may not
# take (awd-lstm-lm's `elif rnn_type == 'QRNN': from torchqrnn import QRNNLayer`): a warning
# that names the branch, not a blocker.
import torch


class RNNModel(torch.nn.Module):
    def __init__(self, rnn_type, ninp, nhid):
        super().__init__()
        if rnn_type == "LSTM":
            self.rnn = torch.nn.LSTM(ninp, nhid)
        elif rnn_type == "QRNN":
            from torchqrnn import QRNNLayer

            self.rnn = QRNNLayer(input_size=ninp, hidden_size=nhid)
