# A model made float64 is kept float64 when one of its inputs cannot be converted with it: the
# inputs come from an array loaded from disk (dtype out of sight). The float64 of its class and
# of its calls' arguments stays with it (TRN220); the shape of pytorch/examples'
# time_sequence_prediction.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTMCell(1, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, input):
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        outputs = []
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm(input_t, (h_t, c_t))
            outputs += [self.linear(h_t)]
        return torch.cat(outputs, dim=1)


if __name__ == "__main__":
    data = np.load("traindata.npy")
    input = torch.from_numpy(data[3:, :-1])
    target = torch.from_numpy(data[3:, 1:])
    seq = Sequence()
    seq.double()
    criterion = nn.MSELoss()
    optimizer = optim.LBFGS(seq.parameters(), lr=0.8)
    for i in range(15):

        def closure():
            optimizer.zero_grad()
            loss = criterion(seq(input), target)
            loss.backward()
            return loss

        optimizer.step(closure)
        probe = seq(torch.ones(1, 4).double())
