#!/bin/sh
# the documented run, then the one that asks for the batch-size probe
python train.py --epochs 3
python train.py --batch-size -1 --epochs 3
