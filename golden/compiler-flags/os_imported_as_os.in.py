# Must not rewrite: only a plain `import os` counts as the module (the pass's rule; `import os as
# os` is read as something else), and a report says to add the flag by hand.
import os as os

import transformers

model = transformers.AutoModelForCausalLM.from_pretrained("gpt2")
