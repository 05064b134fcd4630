#!/bin/bash
# nackgammon3: the Nackgammon net, refined from the shipped standard net (C2,
# training/cube_window) on our own 2-ply targets of Nackgammon positions.  Why: the
# Nackgammon net trained by TD self-play from an older 128-unit net lost to the standard
# net playing Nackgammon (-0.036 +- 0.028 against C2, 2,000 games), and TD self-play from
# the distilled standard nets undid their gains.  Each dataset plays C2's own Nackgammon
# self-play and values the results of its 5 best plays of a random roll (siblings) by C2's
# pruned 2-ply search (gammon.ai.refine --variant nackgammon); 420,000 positions in all,
# about 45 minutes of one core.  Then C2 is fitted 8 epochs on them (1 minute).
# Resumable: a dataset already made is reused shard by shard (gammon.ai.refine), a fit
# already done is kept.  The datasets stay local in training/nackgammon-data/.
set -e
cd "$(dirname "$0")/.."
export NUMBA_NUM_THREADS=${NUMBA_NUM_THREADS:-1}
PY=${PY:-.venv/bin/python}
BASE=training/cube_window/C2/weights.npz OUT=training/nackgammon3 DATA=training/nackgammon-data
mkdir -p $OUT $DATA
data=()
for spec in 31:120000 32:120000 33:60000 34:120000; do
  seed=${spec%%:*} n=${spec##*:}
  $PY -m gammon.ai.refine --base $BASE --variant nackgammon --plies 2 --prune 5 --siblings 5 \
      --positions $n --epochs 1 --lr 3e-4 --seed $seed --out $DATA/s$seed >> $OUT/data_s$seed.log 2>&1
  data+=($DATA/s$seed/dataset.npz)
done
[ -f $OUT/weights.npz ] || $PY -m gammon.ai.refine_fit --base $BASE --data "${data[@]}" --out $OUT \
    --epochs 8 --lr 1e-3 --lr-end 2e-5 --batch 128 --holdout 0.05 --seed 1 > $OUT/fit.log 2>&1
echo "done: $OUT/weights.npz; measure: python benchmarks/variant_nets.py --variant nackgammon --net $OUT/weights.npz"
