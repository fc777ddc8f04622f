# Twin of lightning-trainer-from-hydra-config: the same Trainer built by Hydra's factory from the
# same dataclass, but `instantiate` is also given neuronx-distributed's strategy, which brings its
# own accelerator: no CPU blocker is made up from the dataclass defaults.
import hydra
from neuronx_distributed.lightning import NeuronXLAStrategy

from conf import ProjectTrainerConf
from model import Net, loader

if __name__ == "__main__":
    conf = ProjectTrainerConf(max_epochs=3)
    trainer = hydra.utils.instantiate(conf, strategy=NeuronXLAStrategy(), callbacks=None)
    trainer.fit(Net(), loader())
