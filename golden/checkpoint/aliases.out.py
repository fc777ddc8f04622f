# golden: target=xla-2.1
import torch as th
import torch_xla.core.xla_model as xm
from torch import save as persist


def finish(model, optimizer, epoch):
    xm.mark_step()
    xm.save({"model": model.state_dict(), "epoch": epoch}, file_or_path="last.pt")
    if epoch % 5 == 0: xm.mark_step(); xm.save(data=optimizer.state_dict(), file_or_path="opt.pt")
    state = dict(model=model.state_dict(), epoch=epoch)
    print("saving"); xm.mark_step(); xm.save(state, "state.pt")
