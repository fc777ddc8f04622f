# Class: an inference loop whose host read is in a function of the module it calls every
# iteration (`save_output(name, pred, folder)`, whose body reads its parameter with
# `.cpu().data.numpy()` on every call), and that carries nothing on the device: that read runs
# the iteration's graph, so a cut at the end of the body only runs what is still alive again
# (measured at first sight on XLA:CPU: 6 executions and 3 compiles for 3 images, against 3 and 1
# with no cut). No cut. Twin: eval_read_in_helper_twin (the helper reads only under an `if`:
# not every call, so the loop is cut as before).
import numpy as np
import torch
import torch_xla


def save_output(image_name, pred, folder):
    predict = pred
    predict = predict.squeeze()
    predict_np = predict.cpu().data.numpy()
    np.save(f"{folder}/{image_name}.npy", predict_np)


def infer(net, loader, names, folder):
    device = torch_xla.device()
    for i, data in enumerate(loader):
        inputs = data["image"].to(device)
        d1 = net(inputs)
        pred = d1[:, 0, :, :]
        pred = (pred - torch.min(pred)) / (torch.max(pred) - torch.min(pred))
        save_output(names[i], pred, folder)
