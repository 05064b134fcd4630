#!/bin/bash
# deep9 (stop 59): the checker-play net G1c refined on values of its own pruned 2-ply search.
# Why: since stop 59 G1c plays at every depth, and its 2-ply search grades better than Q7's by
# GNU Backgammon's 2-ply (benchmarks/results/ENGINE.md, stop 59: plain 2-ply 1.62 -> 1.37 and
# 0.97 -> 0.74 mp a decision). The 0-ply net was last fitted on Q7's 2-ply values (deep7's rows,
# deep8's F256); its own search now gives better targets. deep7 gained 0.012 to 0.015 ppg at 0-ply
# against gnubg's 0-ply this way (R5 over Q7); issue 36 still asks for the 0-ply judge <= 3.5
# (3.73 on seed 1) and the 0-ply duel >= 0 on both seeds (-0.001 on seed 2).
# 1. Sibling datasets (the results of G1c's 5 best plays of a random roll in its own 0-ply
#    self-play, 10% random plays), each valued by the pruned 2-ply search over G1c (prune 5), one
#    niced process a seed; each resumes from its last shard of 500 positions, and a fit uses
#    every finished shard (about 9.7 ms a position on an idle core):
#      STEP=data training/run_deep9.sh              # SEEDS="91 92" by default
# 2. G1c refined on them as deep7's R5 was (32 epochs of Adam, 1e-3 to 1e-5, batch 256, ranking
#    term W 10, whole sibling groups held out, 2% held out, seed 66), every net (contact, race,
#    crashed) fitted:
#      STEP=fit training/run_deep9.sh               # OUT=training/deep9/D1 by default
# 3. Measure before anything ships (the 0-ply figures, then the searches'):
#      GAMMON_PLIES=0 GAMMON_WEIGHTS=training/deep9/D1/weights.npz \
#        python ../shared/referee/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2 --seed 1 --json ...
#      ... duel.py benchmarks/gammon_adapter.py --games 1000 --luck --seed 1 (and --seed 2)
# The datasets stay local in training/deep9-data, the weights in training/deep9 (a kept net's
# sha256 goes to MANIFEST.sha256).
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
PY=${PY:-.venv/bin/python}
D=${DEEP9_DIR:-training/deep9-data}
BASE=${BASE:-src/gammon/ai/data/weights-standard-0ply.npz}
SEEDS=${SEEDS:-91 92}
case "${STEP:-data}" in
data)
  BASE=$BASE SEEDS="$SEEDS" DEEP6_DIR=$D STEP=data PY=$PY training/run_deep6.sh
  ;;
fit)
  OUT=${OUT:-training/deep9/D1}
  data=()
  for s in $SEEDS; do [ -f "$D/s$s/dataset.npz" ] && data+=("$D/s$s/dataset.npz"); done
  mkdir -p "$OUT"
  NUMBA_NUM_THREADS=${THREADS:-2} "$PY" -m gammon train refine-fit --base "$BASE" --data "${data[@]}" \
    --out "$OUT" --epochs "${EPOCHS:-32}" --lr 1e-3 --lr-end 1e-5 --batch 256 --holdout 0.02 --seed 66 \
    --rank-weight 10 > "$OUT/fit.log" 2>&1
  ;;
esac
