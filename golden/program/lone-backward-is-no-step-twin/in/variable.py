"""The same tensor trained by an optimizer: a step the evaluator sees without a model to follow
(it stays "cannot tell")."""
import torch

tensor = torch.FloatTensor([[1, 2], [3, 4]])
variable = tensor.clone().requires_grad_(True)
optimizer = torch.optim.SGD([variable], lr=0.1)
for _ in range(10):
    v_out = torch.mean(variable * variable)
    optimizer.zero_grad()
    v_out.backward()
    optimizer.step()
print(variable)
