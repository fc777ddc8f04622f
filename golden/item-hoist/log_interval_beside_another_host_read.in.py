# Class: a loss printed every step, while the same step also reads that loss on the host in
# another way: a metrics logger handed the tensor itself (`writer.add_scalar("loss", loss)`,
# which copies it to the host), or an `.item()` under a test that only asks whether this process
# is the master (`if accelerator.is_main_process:`, true every step on a single process).
# Moving the print under `if step % 10 == 0:` would only thin the log and keep a host read, and
# a forward pass, in every step (measured on XLA:CPU: 2 executions a step with the print gated
# and the logger left): reported (TRN125), not rewritten.
import logging

import torch
import wandb


def train(model, loader, optimizer, writer):
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        writer.add_scalar("loss", loss, global_step=step)
        logging.info(f"step: {step}, loss: {loss.item()}")
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_main_process(model, loader, optimizer, accelerator):
    for step, batch in enumerate(loader):
        loss = model(batch)
        accelerator.backward(loss)
        print(f"training loss: {loss.item()}")
        if accelerator.is_main_process:
            wandb.log(dict(loss=loss.item()))
        optimizer.step()
        optimizer.zero_grad()
