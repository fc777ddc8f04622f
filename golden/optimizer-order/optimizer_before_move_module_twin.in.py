# Twin of optimizer_before_move_module: the network moved by a function the script calls after
# building its optimizer is not reordered (another block); the verdict names such an optimizer.
import torch


def to_device(model):
    return model.cuda()


net = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
net = to_device(net)
