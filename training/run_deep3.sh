#!/bin/bash
# deep3: a large dataset of self-play positions of the shipped 3,805,000-game nets valued by
# their own 2-ply search (pruned to 5 plays at the inner nodes), made by two processes with
# their own seeds in training/deep3-data/{a,b} (local, compressed, saved every 500
# positions; resumable: rerun). On an idle core a position costs about 5.5 ms.
# One process per core, nice 10, one numba thread each. Then train with gammon.ai.refine_fit.
cd "$(dirname "$0")/.."
mkdir -p training/deep3 training/deep3-data/a training/deep3-data/b
for part in a:31 b:32; do
  name=${part%%:*}; seed=${part##*:}
  NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon.ai.refine \
    --base src/gammon/ai/data/weights.npz --positions 1000000 --plies 2 --prune 5 \
    --epochs 0 --seed "$seed" --out "training/deep3-data/$name" >> "training/deep3/gen_$name.txt" 2>&1 &
  echo "$!" > "training/deep3-data/$name.pid"
done
wait
