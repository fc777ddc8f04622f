# Twin of index_passed_to_own_functions: the trainer also prints its `gpu_id`, so the index
# cannot become a device where it is bound (`[GPU0]` would print `[GPUxla:0]`); each use is
# rewritten where it is (TRN024), as before; so is the use in `evaluate`, which is given that
# index too. `main_device`, read only as a device, is still rewritten where it is bound.
import os

import torch


class Trainer:
    def __init__(self, model, gpu_id):
        self.gpu_id = gpu_id
        self.model = model.to(gpu_id)

    def run(self, steps, loader):
        print(f"[GPU{self.gpu_id}] {steps} steps")
        for x, y in loader:
            x = x.to(self.gpu_id)
            y = y.to(self.gpu_id)
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()


def evaluate(model, device):
    return model(torch.zeros(2, 4, device=device)).sum()


def main(device, loader):
    model = torch.nn.Linear(4, 4)
    Trainer(model, device).run(10, loader)
    evaluate(model, device)


if __name__ == "__main__":
    device = 0  # cuda:0
    main(device, [])
    main_device = f"cuda:{int(os.environ['LOCAL_RANK'])}"
    evaluate(torch.nn.Linear(4, 4).to(main_device), main_device)
