# golden: target=neuron
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 4).cuda()
x = torch.zeros(4, device="cuda")
