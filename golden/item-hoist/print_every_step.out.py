# A print every step, before the step's sync: guarded by the script's own --log-interval and run
# in a step closure, with the values it reads passed as arguments.
import argparse

import torch
import torch_xla
import torch_xla.core.xla_model as xm


def train(args, model, loader, optimizer, epoch):
    for step, (x, y) in enumerate(loader):
        x, y = x.to("xla"), y.to("xla")
        optimizer.zero_grad()
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        if step % args.log_interval == 0:
            def _log(epoch, step, loss):
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
            xm.add_step_closure(_log, args=(epoch, step, loss))
        torch_xla.sync()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log-interval", type=int, default=10)
    args = parser.parse_args()
