#!/bin/bash
# Refinement on our own rollouts of CONSTRUCTED lopsided positions (bar against a 4-6 point
# board, crunched or not; half seen from the winning side), mixed with refine2's dataset.
# Resumable: rerun this script.
cd "$(dirname "$0")/.."
mkdir -p training/lopsided2
NUMBA_NUM_THREADS=1 exec nice -n 19 .venv/bin/python -m gammon train lopsided --source constructed \
  --base training/refine2/weights.npz --out training/lopsided2 --positions 800 --trials 72 --seed 2 \
  --mix training/refine2/dataset.npz --repeat 8 --epochs 2 --lr 1e-3 >> training/lopsided2/log.txt 2>&1
