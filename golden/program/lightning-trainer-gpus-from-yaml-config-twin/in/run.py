# Twin of lightning-trainer-gpus-from-yaml-config: the same Trainer, but its YAML config asks
# for no GPU (`accelerator: auto`): no CUDA blocker is made up from the file; whether Lightning
# trains on the target is still not known (`accelerator: cpu` would keep it on the CPU:
# lightning-trainer-decided-to-cpu).
import argparse

import torch
import yaml
from pytorch_lightning import LightningModule, Trainer

parser = argparse.ArgumentParser()
parser.add_argument("--config", "-c", dest="filename", default="configs/vae.yaml")
args = parser.parse_args()
with open(args.filename, "r") as file:
    config = yaml.safe_load(file)


class VAE(LightningModule):
    def __init__(self, latent_dim):
        super().__init__()
        self.encoder = torch.nn.Linear(8, latent_dim)

    def training_step(self, batch, batch_idx):
        return self.encoder(batch).pow(2).mean()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


model = VAE(config["model_params"]["latent_dim"])
loader = torch.utils.data.DataLoader(torch.randn(64, 8), batch_size=8)
runner = Trainer(**config["trainer_params"])
runner.fit(model, loader)
