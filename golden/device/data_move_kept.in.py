# Must not rebind: a `.data` move where another holder would keep the CPU tensor (a module's
# parameter, a name read before the move, a loop, a tensor that needs grad) is reported and left
# as it is; a `.data` cast (`.to(torch.float16)`) or a move to the CPU is no device move at all.
import torch


def port(model, batch, hidden):
    for p in model.parameters():
        p.data = p.data.cuda()
    model.weight.data = model.weight.data.cuda()
    hidden.data = hidden.data.cuda()
    cache = [batch]
    batch.data = batch.data.cuda()
    weight = torch.zeros(3, requires_grad=True)
    weight.data = weight.data.cuda()
    half = torch.zeros(3)
    half.data = half.data.to(torch.float16)
    back = torch.zeros(3)
    back.data = back.data.to("cpu")
    return cache, weight, half, back


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.scale.data = self.scale.data.cuda()
