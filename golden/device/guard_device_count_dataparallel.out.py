# Class: a CUDA-availability check whose made-true branch counts CUDA devices only to choose
# DataParallel (`if torch.cuda.device_count() > 1:`). The count is 0 on Trainium, so that test
# is False there and the wrap is skipped: the check is made true (TRN021), as one process per
# NeuronCore wants. It was a TRN047 blocker, and the script trained on the CPU. A batch moved
# with `.cuda(non_blocking=True)` behind the same check in the loop is the training device's
# move too. Found at first sight in three contrastive-learning scripts.
# Twin: guard_device_count_dataparallel_twin.
import torch
import torch.backends.cudnn as cudnn
import torch_xla


def set_model(model, criterion):
    if torch.cuda.device_count() > 1:
        model = torch.nn.DataParallel(model)
    model = model.to(torch_xla.device())
    criterion = criterion.to(torch_xla.device())
    cudnn.benchmark = True
    return model, criterion


def train(loader, model, criterion, optimizer):
    device = torch_xla.device()
    for images, labels in loader:
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        loss = criterion(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
