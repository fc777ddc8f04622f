# Class: the model type by what trains. A diffusion UNet trained beside a frozen text encoder
# (a transformers model whose parameters are frozen, by `requires_grad_(False)` or a loop over
# its parameters) is not a transformer to compile for: no `--model-type=transformer` (Neuron's
# own Stable Diffusion training sample does not compile it as a transformer).
import torch
from diffusers import UNet2DConditionModel
from transformers import CLIPTextModel, CLIPVisionModel

text_encoder = CLIPTextModel.from_pretrained("model", subfolder="text_encoder").to("cuda")
image_encoder = CLIPVisionModel.from_pretrained("model", subfolder="image_encoder")
unet = UNet2DConditionModel.from_pretrained("model", subfolder="unet").to("cuda")
text_encoder.requires_grad_(False)
for parameter in image_encoder.parameters():
    parameter.requires_grad = False
optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-5)


def main(loader):
    for batch in loader:
        states = text_encoder(batch["ids"].to("cuda"))[0]
        loss = unet(batch["latents"].to("cuda"), batch["t"].to("cuda"), states).sample.mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


if __name__ == "__main__":
    main([])
