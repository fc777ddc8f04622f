import os

import transformers as tf
from transformers import AutoTokenizer

os.environ["NEURON_CC_FLAGS"] = os.environ.get("NEURON_CC_FLAGS", "") + " --model-type=transformer"

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
model = tf.AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
