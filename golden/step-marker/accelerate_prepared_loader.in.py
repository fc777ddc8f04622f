import torch
from accelerate import Accelerator


def main():
    accelerator = Accelerator()
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)
    for batch in train_dl:
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        optimizer.step()
        optimizer.zero_grad()
    model.eval()
    for batch in eval_dl:
        with torch.no_grad():
            predictions = model(**batch).logits.argmax(dim=-1)


if __name__ == "__main__":
    main()
