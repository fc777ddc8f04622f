# golden: target=neuron
import transformers

args = transformers.TrainingArguments("out", optim='adamw_apex_fused')
