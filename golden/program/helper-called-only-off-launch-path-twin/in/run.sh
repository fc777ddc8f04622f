#!/bin/sh
python train.py --batch-size -1 --epochs 3
