#!/bin/bash
# Train on the GPU.
if [[ $1 == "train" ]]; then
    python train.py \
        --cuda \
        --lr 0.01 \
        ${@:2}
fi
