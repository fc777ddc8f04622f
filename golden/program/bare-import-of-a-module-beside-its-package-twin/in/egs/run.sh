#!/bin/bash
MAIN_ROOT=$PWD/../src
export PYTHONPATH=$MAIN_ROOT/bin:$MAIN_ROOT/transformer:$MAIN_ROOT/solver:$PYTHONPATH
python ../src/bin/train.py --epochs 2
