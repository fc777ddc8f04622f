# Must not rewrite: the global name `os` may be a fake, so an appended NEURON_CC_FLAGS line
# cannot be trusted to reach os.environ.
import os

import transformers

from fakes import FakeOs

model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
if model is None:
    os = FakeOs()
