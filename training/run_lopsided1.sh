#!/bin/bash
# Refinement of the shipped (refine2) nets on our own rollouts of lopsided positions,
# mixed with refine2's dataset; resumable (rerun this script: the dataset is saved in chunks).
cd "$(dirname "$0")/.."
mkdir -p training/lopsided1
NUMBA_NUM_THREADS=1 exec nice -n 19 .venv/bin/python -m gammon train lopsided \
  --base training/refine2/weights.npz --out training/lopsided1 --positions 500 --trials 72 \
  --mix training/refine2/dataset.npz --repeat 3 --epochs 2 --lr 3e-4 >> training/lopsided1/log.txt 2>&1
