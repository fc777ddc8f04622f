# Class: a training step that runs on the CPU by the author's choice - a `__main__` smoke test
# that trains a model on `torch.randn` inputs with no device anywhere in the program (the
# device-missing pass reports it, TRN804, when it cannot move it). The step holds no XLA tensor,
# so a graph cut would execute nothing: none is added. Twin: cpu_smoke_test_twin.
import torch
import torchvision


class LARS(torch.optim.Optimizer):
    def __init__(self, named_modules, lr):
        params = [m.weight for _, m in named_modules if hasattr(m, "weight")]
        super().__init__(params, {"lr": lr})

    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.data.add_(p.grad, alpha=-group["lr"])


if __name__ == "__main__":
    model = torchvision.models.resnet18()
    optimizer = LARS(model.named_modules(), lr=0.1)
    for i in range(100):
        model.zero_grad()
        loss = model(torch.randn((2, 3, 32, 32))).mean()
        loss.backward()
        optimizer.step()
