import torch
import torch_xla

state = torch.load("ckpt.pt", map_location="cpu")
other = torch.load("ckpt.pt", map_location="cpu")
chosen = torch.load("ckpt.pt", map_location="cpu")
kept = torch.load("ckpt.pt", map_location="cpu")
moved = torch.zeros(2).to(torch.device("xla"))
