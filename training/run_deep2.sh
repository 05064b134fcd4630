#!/bin/bash
# deep2: (1) the TD run continued from training/td1 (2,195,000 games) at a lower step size,
# alpha 0.01, in training/td1-a01 (local copy; resumable: rerun); (2) a dataset of
# self-play positions of the 2,195,000-game nets valued by their own 2-ply search (pruned
# to 5 plays at the inner nodes), in training/deep2-data/a (local, compressed, saved every
# 500 positions; resumable). One process each, nice 10, one numba thread.
cd "$(dirname "$0")/.."
mkdir -p training/deep2 training/deep2-data/a
NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon train td --out training/td1-a01 \
  --resume --games 3000000 --alpha 0.01 --snapshot-every 0 >> training/deep2/td_a01.txt 2>&1 &
echo "$!" > training/deep2-data/td.pid
NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon train refine \
  --base training/td1/checkpoint.npz --positions 400000 --plies 2 --prune 5 \
  --epochs 0 --seed 21 --out training/deep2-data/a >> training/deep2/gen_a.txt 2>&1 &
echo "$!" > training/deep2-data/a.pid
wait
