import torch
import torch_xla.core.xla_model as xm

device = "xla"
model = torch.nn.Linear(4, 4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in [(torch.randn(2, 4), torch.randn(2, 4))]:
    x, y = x.to(device), y.to(device)
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    xm.mark_step()
xm.save(model.state_dict(), "model.pt")
