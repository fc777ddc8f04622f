# Class: an evaluation loop that reads one value on the host every batch (`loss.item()`) and
# hands another, computed on the device, to a meter that sums it there (`top1.update(acc1[0],
# n)`), read after the loop. The read runs only the loss's graph; the meter's sum holds one graph
# over every batch's forward pass until it is printed (140 IR nodes pending after 8 batches
# against 15 with the cut before the read: benchmarks/step_shapes/eval_host_read.py meter).
# The cut goes before the first read. Found at first sight in a distillation trainer's
# validate(); the same shape is a CLIP trainer's evaluate() in the port set J.
# Twin: eval_read_and_meter_twin.
import torch


def validate(val_loader, model, criterion, losses, top1):
    model.eval()
    with torch.no_grad():
        for idx, (input, target) in enumerate(val_loader):
            input = input.float().cuda()
            target = target.cuda()
            output = model(input)
            loss = criterion(output, target)
            acc1 = (output.argmax(1) == target).float().mean() * 100
            losses.update(loss.item(), input.size(0))
            top1.update(acc1, input.size(0))
    return top1.avg
