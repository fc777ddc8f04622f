# Must not fire: the same trainer with a model that is not wrapped in DataParallel (it never
# scattered anything; where the step's inputs live is the evaluator's question).
import torch.nn as nn
from tqdm import tqdm


class Trainer:
    def __init__(self, net, loader):
        self.model = net.cuda()
        self.loader = loader
        self.head = nn.Linear(4, 2)

    def evaluate(self):
        for step, (images, labels) in enumerate(tqdm(self.loader)):
            labels = labels.cuda(non_blocking=True)
            logits = self.model(images)
            print(step, (logits.argmax(1) == labels).float().mean(), images.shape[0])
