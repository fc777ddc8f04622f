# Twin of log_interval_beside_another_host_read: the logger reads the loss only at log steps
# (under the interval guard), and the master-only read is under a test that holds once in a
# while, not every step: the print is the step's only host read every step, and moves under
# `if step % 10 == 0:` (TRN122).
import logging

import torch
import wandb


def train(model, loader, optimizer, writer):
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        if step % 100 == 0:
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
        if step % 100 == 0:
            wandb.log(dict(loss=loss.item()))
        optimizer.step()
        optimizer.zero_grad()
