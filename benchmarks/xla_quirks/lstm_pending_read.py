"""torch-xla 2.9: after an LSTM cell and an optimizer step, reading the parameters one at a time
before a graph cut gives ``b`` the value of ``a`` (and ``b`` keeps it).

    PJRT_DEVICE=CPU python lstm_pending_read.py          # a [1.0, 2.0]  b [1.0, 2.0]   wrong
    PJRT_DEVICE=CPU python lstm_pending_read.py --sync   # a [1.0, 2.0]  b [5.0, 7.0]   right

``a`` and ``b`` play ``nn.LSTM``'s ``bias_ih`` and ``bias_hh``: both are added to the gates, so
they get the same gradient. ``torch_xla.sync()`` before the first read avoids it; the runner of
``trncodemod verify --against`` does that (``settle_device``). Seen on mnist_rnn
(pytorch/examples), where the migrated ``rnn.bias_hh_l0`` read as ``rnn.bias_ih_l0``.
"""

import sys

import torch
import torch_xla

dev = torch_xla.device()
w = torch.nn.Parameter(torch.ones(2, 2).to(dev))
a = torch.nn.Parameter(torch.tensor([1.0, 2.0]).to(dev))
b = torch.nn.Parameter(torch.tensor([5.0, 7.0]).to(dev))
optimizer = torch.optim.SGD([w, a, b], lr=0.1)
x = torch.tensor([[3.0, 4.0]]).to(dev)
zeros = torch.zeros(1, 2, device=dev)
torch_xla.sync()
h, _ = torch._VF.lstm_cell(
    x, (zeros, zeros), w.repeat(4, 1), w.repeat(4, 1), a.repeat(4), b.repeat(4)
)
h.sum().backward()
optimizer.step()
if "--sync" in sys.argv:
    torch_xla.sync()
print("a", [round(v, 4) for v in a.detach().cpu().tolist()])
print("b", [round(v, 4) for v in b.detach().cpu().tolist()])
