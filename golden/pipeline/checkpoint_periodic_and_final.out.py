# golden: select=TRN00,TRN32,TRN101
import torch
import torch.nn.functional as F
import torch_xla
import torch_xla.core.xla_model as xm


def main(model, train_loader, epochs, log_dir):
    device = torch_xla.device()
    model = model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        for step, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(data), target)
            loss.backward()
            optimizer.step()
            torch_xla.sync()
            if step % 500 == 0:
                # periodic checkpoint
                xm.save(
                    {"model": model.state_dict(), "optimizer": optimizer.state_dict()},
                    f"{log_dir}/step_{step}.pt",
                )
    torch_xla.sync()
    xm.save(model.state_dict(), f"{log_dir}/final.pt")
