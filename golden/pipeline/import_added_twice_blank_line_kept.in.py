# Twin of import_added_twice_statement_between_imports: the file's own blank line after the first
# import stays where it is.
import warnings

warnings.simplefilter(action="ignore", category=FutureWarning)
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 2).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(10):
    x = torch.randn(8, 4).cuda()
    loss = model(x).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
