# golden: target=neuron
"""An entry script that starts one process: xm.optimizer_step is a plain step (its reduction was
a no-op), master_print a print, rendezvous has nothing to wait for, xm.save a torch.save."""
import torch
import torch_xla.core.xla_model as xm


def main():
    device = xm.xla_device()
    model = torch.nn.Linear(8, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(4):
        optimizer.zero_grad()
        model(torch.randn(4, 8, device=device)).sum().backward()
        xm.optimizer_step(optimizer, barrier=True)
    xm.rendezvous("done")
    xm.master_print("trained on", xm.xla_device_hw(device))
    xm.save(model.state_dict(), "model.pt")


if __name__ == "__main__":
    main()
