import torch
import torch_xla

import agents


def main():
    device = torch_xla.device()
    model = torch.nn.Linear(4, 1).to(device)
    agent = agents.A2C(model, 0.01)
    for j in range(100):
        batch = torch.randn(8, 4, device=device)
        loss = agent.update(batch)
        torch_xla.sync()
        if j % 10 == 0:
            print(j, loss.item())
    print(agent.finetune(torch.randn(8, 4, device=device)))


if __name__ == "__main__":
    main()
