# Twin of eval_read_in_helper: the helper reads its parameter on the host only under an
# `if` (not on every call), so it is not the loop's read: the loop gets its cut as a loop
# over device batches does.
import numpy as np
import torch
import torch_xla


def save_output(image_name, pred, folder, keep):
    predict = pred
    predict = predict.squeeze()
    if keep:
        predict_np = predict.cpu().data.numpy()
        np.save(f"{folder}/{image_name}.npy", predict_np)


def infer(net, loader, names, folder):
    device = torch_xla.device()
    for i, data in enumerate(loader):
        inputs = data["image"].to(device)
        d1 = net(inputs)
        pred = d1[:, 0, :, :]
        pred = (pred - torch.min(pred)) / (torch.max(pred) - torch.min(pred))
        save_output(names[i], pred, folder, i % 10 == 0)
        torch_xla.sync()
