# golden: target=xla-2.1
import os

from torchvision.models import vit_b_16

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"

model = vit_b_16()
