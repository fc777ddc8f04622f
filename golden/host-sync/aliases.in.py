# Aliases resolve: `import torch as th`, `from torch.nn.utils import clip_grad_norm_ as clip`.
import torch as th
from torch import isnan
from torch.nn.utils import clip_grad_norm_ as clip


def train(net, loader, opt, criterion):
    for x, y in loader:
        opt.zero_grad()
        out = net(x.to("xla"))
        loss = criterion(out, y.to("xla"))
        loss.backward()
        clip(net.parameters(), max_norm=1.0, error_if_nonfinite=True)
        opt.step()
        if isnan(loss) or th.allclose(out, out):
            print(th.sigmoid(out))
