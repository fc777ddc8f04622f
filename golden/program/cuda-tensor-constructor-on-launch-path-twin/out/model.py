# Twin of cuda-tensor-constructor-on-launch-path: the padding is made with the sizes form,
# `torch.cuda.FloatTensor(b, c, h, w)`, which becomes `torch.empty(b, c, h, w,
# dtype=torch.float32, device=torch_xla.device())`; a data constructor under `if x.is_cuda:`
# never runs on Trainium (a warning, not a blocker): the entry point runs.
import torch
import torch.nn as nn
import torch_xla


class PadBlock(nn.Module):
    def __init__(self, inplanes, planes):
        super().__init__()
        self.conv = nn.Conv2d(inplanes, planes, 3, padding=1)
        self.extra = planes - inplanes

    def forward(self, x):
        out = self.conv(x)
        padding = torch.empty(x.size(0), self.extra, x.size(2), x.size(3), dtype=torch.float32, device=torch_xla.device()).fill_(0)
        return out + torch.cat((x, padding), 1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = PadBlock(3, 6)
        self.fc = nn.Linear(6, 10)

    def forward(self, x):
        return self.fc(center(self.block(x).mean((2, 3)), [0.5] * 6))


def center(x, mean):
    if x.is_cuda:
        return x - torch.cuda.FloatTensor(mean)
    return x - torch.tensor(mean, device=x.device)
