# Twin of timing_loop_drops_result: the timing loop keeps the model's output in a name, which
# is alive at the end of each iteration: the cut there runs the forward pass, once a call. A loop
# that drops two results is reported, not rewritten: one name for both would drop the first
# again before the cut.
import time

import torch


def throughput(data_loader, model, device):
    model.eval()
    for images, _ in data_loader:
        images = images.to(device)
        tic = time.time()
        for _ in range(30):
            out = model(images)
        torch.cuda.synchronize()
        return 30 * out.shape[0] / (time.time() - tic)


def warm_up(model, a, b):
    for _ in range(10):
        model(a)
        model(b)
