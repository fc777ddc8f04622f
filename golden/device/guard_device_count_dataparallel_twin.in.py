# Twin of guard_device_count_dataparallel: here the made-true branch uses the count as a
# number (the GPUs DataParallel spreads over, `device_ids=range(torch.cuda.device_count())`),
# which is 0 on Trainium: the check is left as it is (TRN047).
import torch


def set_model(model):
    if torch.cuda.is_available():
        model = torch.nn.DataParallel(model, device_ids=list(range(torch.cuda.device_count())))
        model = model.cuda()
    return model
