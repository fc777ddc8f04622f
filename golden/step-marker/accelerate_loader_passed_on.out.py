import torch
import torch_xla
from accelerate import Accelerator
from torch.utils.data import DataLoader


def get_dataloaders(dataset):
    train_dataloader = DataLoader(dataset["train"], batch_size=16, drop_last=True)
    eval_dataloader = DataLoader(dataset["validation"], batch_size=16)
    return train_dataloader, eval_dataloader


def evaluation_loop(model, eval_dataloader):
    # The caller passes the prepared loader: accelerate already cuts per batch.
    for batch in eval_dataloader:
        with torch.no_grad():
            outputs = model(**batch)


def main(dataset):
    accelerator = Accelerator()
    train_dataloader, eval_dataloader = get_dataloaders(dataset)
    model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader
    )
    for step, batch in enumerate(train_dataloader):
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    evaluation_loop(model, eval_dataloader)
    # Built here and never prepared: this loop needs its own cut.
    extra = DataLoader(dataset["extra"], batch_size=16, drop_last=True)
    for batch in extra:
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        torch_xla.sync()


if __name__ == "__main__":
    main(load())
