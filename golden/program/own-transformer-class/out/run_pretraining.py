import os

import torch
import torch_xla

import modeling

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"


def main():
    device = torch_xla.device()
    config = modeling.BertConfig()
    model = modeling.BertForPreTraining(config).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        ids = torch.randint(0, config.vocab_size, (8, 16), device=device)
        logits = model(ids)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, config.vocab_size), ids.view(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        torch_xla.sync()


if __name__ == "__main__":
    main()
