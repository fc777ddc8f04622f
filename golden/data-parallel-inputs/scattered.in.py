# A DataParallel model moved to the GPU and fed a loader's batch as it comes: on CUDA its forward
# scattered the batch onto the GPUs; on XLA it calls the module directly, so each input the loop
# never moves is moved beside the loop's move of another element of the same batch, with the
# same arguments, and a tensor made on the CPU is moved at the call (CutMix `validate`).
import torch
import torch.nn as nn


def validate(val_loader, model, criterion):
    model.eval()
    for i, (input, target) in enumerate(val_loader):
        target = target.cuda(non_blocking=True)
        output = model(input)
        loss = criterion(output, target)
        print(i, loss.item(), input.size(0))


def smoke(model):
    print(model(torch.randn(2, 3, 32, 32)).shape)


def main(net, val_loader):
    model = nn.DataParallel(net, device_ids=None).cuda()
    criterion = nn.CrossEntropyLoss().cuda()
    validate(val_loader, model, criterion)
    smoke(model)
