# A residual block whose forward makes its shortcut padding with a legacy CUDA tensor type
# given one argument (a size or data: not rewritten): it raises `Found no NVIDIA driver` on
# Trainium at the first step, so the entry point does not run (twin:
# cuda-tensor-constructor-on-launch-path-twin, the sizes form, rewritten).
import torch
import torch.nn as nn


class PadBlock(nn.Module):
    def __init__(self, inplanes, planes):
        super().__init__()
        self.conv = nn.Conv2d(inplanes, planes, 3, padding=1)
        self.extra = planes - inplanes

    def forward(self, x):
        out = self.conv(x)
        shape = (x.size(0), self.extra, x.size(2), x.size(3))
        padding = torch.cuda.FloatTensor(torch.Size(shape)).fill_(0)
        return out + torch.cat((x, padding), 1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = PadBlock(3, 6)
        self.fc = nn.Linear(6, 10)

    def forward(self, x):
        return self.fc(self.block(x).mean((2, 3)))
