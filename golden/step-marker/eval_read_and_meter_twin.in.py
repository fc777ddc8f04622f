# Twin of eval_read_and_meter: the meters get only host values (the loss read with `.item()`,
# the batch's size), so nothing computed on the device leaves the iteration: the read runs the
# iteration's graph and a cut would only add an execution. No marker.
import torch


def validate(val_loader, model, criterion, losses, seen):
    model.eval()
    with torch.no_grad():
        for idx, (input, target) in enumerate(val_loader):
            input = input.float().cuda()
            target = target.cuda()
            output = model(input)
            loss = criterion(output, target)
            losses.update(loss.item(), input.size(0))
            seen.update(input.size(0))
    return losses.avg
