"""A tutorial that shows a gradient: one `backward()` on a tensor's own graph, no model and no
optimizer. Nothing trains: no step, no verdict."""
import torch

tensor = torch.FloatTensor([[1, 2], [3, 4]])
variable = tensor.clone().requires_grad_(True)
v_out = torch.mean(variable * variable)
v_out.backward()
print(variable.grad)
