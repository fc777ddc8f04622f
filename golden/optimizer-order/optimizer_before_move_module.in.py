# Class: a training script's top level that builds its optimizer, then moves the network with
# `net = net.cuda()` a statement later: the move is put first (TRN053; the device pass then
# ports `.cuda()`).
# Twin: optimizer_before_move_module_twin.
import torch

net = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
criterion = torch.nn.MSELoss()
net = net.cuda()
