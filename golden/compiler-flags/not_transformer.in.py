import torch
from transformers import AutoTokenizer, AutoConfig, Trainer

tokenizer = AutoTokenizer.from_pretrained("gpt2")
config = AutoConfig.from_pretrained("gpt2")
model = torch.nn.Sequential(torch.nn.Linear(4, 4))
