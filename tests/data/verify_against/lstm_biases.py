"""An LSTM classifier (mnist_rnn of pytorch/examples in small): the gates add `bias_ih` and
`bias_hh`, so both get the same gradient. Read one at a time after the last step, before a graph
cut, torch-xla 2.9 gave `bias_hh` the value of `bias_ih` (benchmarks/xla_quirks/
lstm_pending_read.py); the runner cuts the graph first, and the two must compare equal."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(input_size=6, hidden_size=8, batch_first=True)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        output, _ = self.rnn(x)
        return F.log_softmax(self.fc(output[:, -1]), dim=1)


def main():
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Net().to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    inputs, targets = torch.randn(16, 5, 6), torch.randint(0, 3, (16,))
    for step in range(4):
        x, y = (
            inputs[step * 4 : step * 4 + 4].to(device),
            targets[step * 4 : step * 4 + 4].to(device),
        )
        optimizer.zero_grad()
        loss = F.nll_loss(model(x), y)
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
