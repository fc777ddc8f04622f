import torch

state = torch.load("ckpt.pt", map_location="cuda")
other = torch.load("ckpt.pt", map_location=torch.device("cuda"))
chosen = torch.load("ckpt.pt", map_location="cuda" if torch.cuda.is_available() else "cpu")
kept = torch.load("ckpt.pt", map_location="cpu")
moved = torch.zeros(2).to(torch.device("cuda"))
