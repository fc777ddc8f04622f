# Class: an optimizer built over one container of modules, then a second container holding the
# same modules moved in place (`module_list.cuda()`), with a statement between that reads the
# moved container (a teacher appended after the optimizer, to keep it out of weight decay): the
# move cannot go up, so the optimizer goes down, below the moves. Left as it was, the student's
# parameters were on the XLA device and the optimizer's on the CPU: 0 of 29 parameters changed
# in 5 steps (measured at first sight in a knowledge-distillation trainer). Twin:
# container_moved_after_optimizer_twin.
import torch
import torch.nn as nn
import torch.optim as optim


def main(model_s, model_t, criterion_cls, criterion_kd, train_loader, opt):
    module_list = nn.ModuleList([])
    module_list.append(model_s)
    trainable_list = nn.ModuleList([])
    trainable_list.append(model_s)
    trainable_list.append(criterion_kd)

    criterion_list = nn.ModuleList([])
    criterion_list.append(criterion_cls)
    criterion_list.append(criterion_kd)

    # append teacher after optimizer to avoid weight_decay
    module_list.append(model_t)

    module_list.cuda()
    criterion_list.cuda()

    # optimizer
    optimizer = optim.SGD(trainable_list.parameters(), lr=opt.learning_rate, momentum=0.9)

    for x, y in train_loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion_cls(model_s(x), y) + criterion_kd(model_s(x), model_t(x))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
