# Class: a warm-up or timing loop that calls the model and drops what it returns
# (`model(images)` alone in the body): on the lazy XLA device nothing runs until a live value
# is cut or read, so a cut after the call runs no graph (measured by a reviewer on XLA:CPU: 80
# such calls with a cut each gave 1 graph execution; with `out = model(images)`, 80). The result
# is kept in a name the function does not use and the cut goes after it. Twin:
# timing_loop_keeps_result_twin (the loop keeps its result itself: only the cut).
import time

import torch
import torch_xla


def throughput(data_loader, model, device):
    model.eval()
    for images, _ in data_loader:
        images = images.to(device)
        for _ in range(50):
            out = model(images)
            torch_xla.sync()
        torch.cuda.synchronize()
        tic = time.time()
        for _ in range(30):
            out = model(images)
            torch_xla.sync()
        torch.cuda.synchronize()
        return 30 * images.shape[0] / (time.time() - tic)
