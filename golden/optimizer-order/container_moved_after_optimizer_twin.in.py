# Twin of container_moved_after_optimizer: the statement between appends to the list the
# optimizer steps (moving the optimizer below it would step the teacher too), and a move of a
# container that shares no module with the optimizer's (the frozen teacher's own list) does not
# move the optimizer. Neither is reordered.
import torch
import torch.nn as nn
import torch.optim as optim


def main(model_s, model_t, criterion_cls, train_loader, opt):
    trainable_list = nn.ModuleList([])
    trainable_list.append(model_s)
    module_list = nn.ModuleList([])
    module_list.append(model_s)
    optimizer = optim.SGD(trainable_list.parameters(), lr=opt.learning_rate)
    trainable_list.append(model_t)
    module_list.cuda()

    frozen = nn.ModuleList([])
    frozen.append(model_t)
    second = optim.SGD(model_s.parameters(), lr=opt.learning_rate)
    frozen.cuda()

    for x, y in train_loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion_cls(model_s(x), y)
        optimizer.zero_grad()
        second.zero_grad()
        loss.backward()
        optimizer.step()
        second.step()
