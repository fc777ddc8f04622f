# golden: target=xla-2.1
from torchvision.models import vit_b_16
import os

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"

model = vit_b_16()
