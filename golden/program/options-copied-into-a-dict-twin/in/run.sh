#!/bin/sh
python train.py --force_cpu
