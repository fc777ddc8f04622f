import torch
import torch_xla

model = torch.nn.Linear(2, 2).cuda()  # trncodemod: ignore[TRN001]
other = torch.nn.Linear(2, 2).cuda()  # noqa: TRN001
third = torch.nn.Linear(2, 2).to(torch_xla.device())  # noqa: E501
