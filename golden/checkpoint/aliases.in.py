# golden: target=xla-2.1
import torch as th
from torch import save as persist


def finish(model, optimizer, epoch):
    persist({"model": model.state_dict(), "epoch": epoch}, f="last.pt")
    if epoch % 5 == 0: th.save(obj=optimizer.state_dict(), f="opt.pt")
    state = dict(model=model.state_dict(), epoch=epoch)
    print("saving"); th.serialization.save(state, "state.pt")
