# golden: target=xla-2.1
from torchvision.models import vit_b_16

model = vit_b_16()
