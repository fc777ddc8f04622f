#!/bin/bash
# Train on the GPU.
if [[ $1 == "train" ]]; then
    python train.py \
        --lr 0.01 \
        ${@:2}
fi
