import os

import transformers as tf
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
model = tf.AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
