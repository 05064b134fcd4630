#!/bin/bash
# nackgammon3: the Nackgammon net, refined from the shipped standard net (C2,
# training/cube_window) on our own 2-ply targets of Nackgammon positions.  Why: the
# Nackgammon net trained by TD self-play from an older 128-unit net lost to the standard
# net playing Nackgammon (-0.036 +- 0.028 against C2, 2,000 games), and TD self-play from
# the distilled standard nets undid their gains.  Each dataset plays C2's own Nackgammon
# self-play and values the results of its 5 best plays of a random roll (siblings) by C2's
# pruned 2-ply search (deep_round.sh's sibling_data with --variant nackgammon); 420,000
# positions in all, about 45 minutes of one core.  Then C2 is fitted 8 epochs on them
# (4 minutes).  Resumable: a dataset already made is reused shard by shard
# (gammon.training.refine), a fit already done is kept.  The datasets stay local in
# training/nackgammon-data/.
set -e
cd "$(dirname "$0")/.."
. training/deep_round.sh
# nackgammon5 (stop 46): the same over the shipped net Q7 (training/deep6), which the
# Nackgammon net refined from C2 had come to lose to:
#   BASE=src/gammon/ai/data/weights.npz OUT=training/nackgammon5 D=training/nackgammon5-data training/run_nackgammon3.sh
BASE=${BASE:-training/cube_window/C2/weights.npz} OUT=${OUT:-training/nackgammon3} D=${D:-training/nackgammon-data}
mkdir -p $OUT
SIBLING_DIR=$D SIBLING_ARGS="--variant nackgammon" \
  sibling_data $BASE $OUT s31:31:120000 s32:32:120000 s33:33:60000 s34:34:120000
[ -f $OUT/weights.npz ] || NUMBA_NUM_THREADS=1 .venv/bin/python -m gammon train refine-fit --base $BASE \
    --data $D/s{31,32,33,34}/dataset.npz --out $OUT \
    --epochs 8 --lr 1e-3 --lr-end 2e-5 --batch 128 --holdout 0.05 --seed 1 > $OUT/fit.log 2>&1
echo "done: $OUT/weights.npz; measure: python benchmarks/variant_nets.py --variant nackgammon --net $OUT/weights.npz"
