import torch_xla
from torch import nn
from transformers import PreTrainedModel


class TinyLM(PreTrainedModel):
    _tied_weights_keys = ["lm_head.weight"]

    def __init__(self, config):
        super().__init__(config)
        self.wte = nn.Embedding(config.vocab_size, config.hidden_size)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.post_init()

    def get_output_embeddings(self):
        return self.lm_head

    def forward(self, input_ids):
        return self.lm_head(self.wte(input_ids))


def main(config):
    model = TinyLM(config).to(torch_xla.device())
    model.tie_weights()
    return model
