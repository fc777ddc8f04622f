# golden: target=xla-2.5
from transformers import AutoModel, HfArgumentParser

parser = HfArgumentParser(ScriptArguments)
(script_args,) = parser.parse_args_into_dataclasses()
model = AutoModel.from_pretrained(script_args.model)
