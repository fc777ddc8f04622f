# Class: a host copy spelled `.to("cpu")` (or `.to(device="cpu")`, `.to(torch.device("cpu"))`)
# is a host read like `.cpu()`. Each step of this sampler copies the model's prediction and then
# the next state, computed from the same forward pass, to the host: without a cut the second
# copy runs the forward again (measured on XLA:CPU, a DDIM sampler: 7 executions for 3 steps
# with the cut at the end of the body, 3 with it before the first copy). The cut goes before
# the first copy.
import torch
import torch_xla


def generalized_steps(x, seq, model, device):
    with torch.no_grad():
        xs = [x]
        x0_preds = []
        for i in seq:
            t = torch.ones(x.size(0), device=device) * i
            xt = xs[-1].to(device)
            et = model(xt, t)
            x0_t = (xt - et * 0.5) / 0.9
            torch_xla.sync()
            x0_preds.append(x0_t.to("cpu"))
            xt_next = 0.9 * x0_t + 0.1 * torch.randn_like(x0_t) + 0.2 * et
            xs.append(xt_next.to(device="cpu"))
    return xs, x0_preds
