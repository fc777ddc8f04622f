# Twin of eval_reads_all_on_host: these loops keep a cut (before a call handed the iteration's
# value, else at the end of the body), since what they compute leaves the iteration other than
# through a host read and keeps growing one graph without it: handed to a call whose result is dropped (a meter that sums on the device,
# `valid_loss_avg.add(cost)`), changed in place in a value made before the loop
# (`total.add_(...)`), stored into one (`bank[step] = out`), or read by the next iteration
# (`prev = out`, then `model(x, prev)`).
import torch
import torch.nn.functional as F
import torch_xla


def validate(model, criterion, loader, valid_loss_avg, device):
    with torch.no_grad():
        for image_tensors, labels in loader:
            image = image_tensors.to(device)
            preds = model(image)
            cost = criterion(preds, labels.to(device))
            torch_xla.sync()
            valid_loss_avg.add(cost)
            preds_max_prob, _ = F.softmax(preds, dim=1).max(dim=1)
            for prob in preds_max_prob:
                print(f"{prob:0.4f}")


def sum_outputs(model, loader, device):
    total = torch.zeros(4, device=device)
    with torch.no_grad():
        for x in loader:
            out = model(x.to(device))
            torch_xla.sync()
            total.add_(out.sum(0))
            for row in out:
                print(f"{row[0]:0.4f}")
    return total


def bank_outputs(model, loader, bank, device):
    with torch.no_grad():
        for step, x in enumerate(loader):
            out = model(x.to(device))
            bank[step] = out
            for row in out:
                print(f"{row[0]:0.4f}")
            torch_xla.sync()



def decode_fed_forward(model, loader, device):
    prev = None
    with torch.no_grad():
        for x in loader:
            out = model(x.to(device), prev)
            for row in out:
                print(f"{row[0]:0.4f}")
            prev = out
            torch_xla.sync()
