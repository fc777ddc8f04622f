# Must not be taken for a frozen encoder (twin of frozen_text_encoder): a transformers model that
# is fine-tuned is what trains, even beside a frozen one, and freezing only its embeddings
# (`model.embeddings.requires_grad_(False)`) does not freeze the model.
import os

import torch
from transformers import BertModel, CLIPTextModel

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"

teacher = CLIPTextModel.from_pretrained("teacher")
teacher.requires_grad_(False)
model = BertModel.from_pretrained("bert-base-uncased").to("cuda")
model.embeddings.requires_grad_(False)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)


def main(loader):
    for batch in loader:
        loss = model(batch["ids"].to("cuda")).last_hidden_state.mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])


def freeze_some(model, names):
    # A loop over parameters whose body holds compound statements is not the plain freezing loop.
    for name, parameter in model.named_parameters():
        if name in names:
            parameter.requires_grad = False
        else:
            for _ in range(2):
                pass
