#!/bin/bash
# deep3: a large dataset of self-play positions of the shipped 3,805,000-game nets valued by
# their own 2-ply search (pruned to 5 plays at the inner nodes), made by two processes with
# their own seeds in training/deep3-data/NAME (local, compressed, saved about every minute;
# resumable: rerun with the same PARTS and SIBLINGS). On an idle core a position costs about 5.5 ms.
# One process per core, nice 10, one numba thread each. Then train with gammon.training.refine_fit.
# Datasets a and b hold the self-play positions themselves (stopped at about 70,000 each:
# nets refined on them chose worse plays); c and d (SIBLINGS=5) hold the results of the
# base net's 5 best plays of a random roll from each self-play position.
cd "$(dirname "$0")/.."
PARTS=${PARTS:-"c:33 d:34"}
SIBLINGS=${SIBLINGS:-5}
mkdir -p training/deep3
for part in $PARTS; do
  name=${part%%:*}; seed=${part##*:}
  mkdir -p "training/deep3-data/$name"
  NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon train refine \
    --base src/gammon/ai/data/weights.npz --positions 1000000 --plies 2 --prune 5 \
    --epochs 0 --seed "$seed" --siblings "$SIBLINGS" --out "training/deep3-data/$name" >> "training/deep3/gen_$name.txt" 2>&1 &
  echo "$!" > "training/deep3-data/$name.pid"
done
wait
