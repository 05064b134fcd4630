#!/bin/bash
# Dataset for deep1: self-play positions of the shipped nets valued by our own 2-ply search
# (pruned at the inner nodes to 5 plays, as the strongest level does), made by two
# processes with their own seeds (one per core). Resumable: rerun this script; each
# process saves its compressed dataset every 500 positions in training/deep1-data/{a,b}/
# (local), and its progress in training/deep1/gen_{a,b}.txt. Stop it whenever; the
# training step (gammon train refine-fit) uses the shards made so far.
cd "$(dirname "$0")/.."
mkdir -p training/deep1 training/deep1-data/a training/deep1-data/b
for part in a:11 b:12; do
  name=${part%%:*}; seed=${part##*:}
  NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon train refine \
    --base src/gammon/ai/data/weights.npz --positions 400000 --plies 2 --prune 5 \
    --epochs 0 --seed "$seed" --out "training/deep1-data/$name" \
    >> "training/deep1/gen_$name.txt" 2>&1 &
  echo "$!" > "training/deep1-data/$name.pid"
done
wait
