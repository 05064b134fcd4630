#!/bin/bash
# closeout round (stop 57, data only so far): our own rollouts of closeouts and late hits for the
# 0-ply net G1c, which decides every level's cube.  Why: in the world-class level's seed-1 matches
# eight wrong passes held 1.652 of 4.216 EMG of cube error, our probabilities giving the doubler
# 5 to 8 points more than GNU Backgammon's; a probe of 40 closeouts from the expert's self-play
# (the side on roll holding its six home points, a checker of the other on the bar) found G1c
# 0.031 from our own 1,296-trial rollouts on average, and +0.17 and +0.24 in two closeouts of a
# side far ahead in the race (training/closeout/README.md).
# Data: 3,000 constructed late-hit positions played on 0-4 plies (seed 61) and 3,000 lopsided
# positions of G1c's own self-play (a side on the bar against four or more made home points, or
# a blitz; seed 62), and 3,000 more late hits (seed 63), each rolled out to the end by G1c at
# 0-ply (216 trials).
# C1: 4 epochs from G1c over G1c's own 0-ply values of 1,000,000 sibling positions of its
# self-play (the anchor of gammon_window round 2, seed 956), round 1's cube-window rollouts (seeds
# 41, 42, four times each, as G1c was fitted) and these (eight times each).  C1 keeps the fitted
# contact net over G1c's race and crashed nets (training/gammon_window/contact_only.py); C1x keeps
# the fitted crashed net as well.
# Resumable: each dataset is saved in chunks to training/closeout-data/sNN; done steps are skipped.
set -e
cd "$(dirname "$0")/.."
G1C=src/gammon/ai/data/weights-standard-0ply.npz OUT=training/closeout D=training/closeout-data
mkdir -p $OUT $D
run() {  # source seed; every seed's log in one file, each under its own header
  echo "== seed $2 ($1)" >> $OUT/rollouts.log
  NUMBA_NUM_THREADS=1 nice -n 19 .venv/bin/python -m gammon train lopsided --source "$1" --base $G1C \
    --out $D/s$2 --positions 3000 --trials 216 --epochs 0 --seed "$2" >> $OUT/rollouts.log 2>&1
}
[ -f $D/s61/meta.json ] || run late-hit 61
[ -f $D/s62/meta.json ] || run self-play 62
[ -f $D/s63/meta.json ] || run late-hit 63
data=(training/g2-data/anchor.npz)
for f in training/g1-data/s41 training/g1-data/s42; do data+=($f/dataset.npz $f/dataset.npz $f/dataset.npz $f/dataset.npz); done
for s in 61 62 63; do for k in 1 2 3 4 5 6 7 8; do data+=($D/s$s/dataset.npz); done; done
mkdir -p $OUT/C1
[ -f $OUT/C1/fit/weights.npz ] || NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon train refine-fit --base $G1C \
  --data "${data[@]}" --out $OUT/C1/fit --epochs 4 --lr 3e-4 --lr-end 1e-5 --batch 256 --holdout 0.02 \
  --seed 65 > $OUT/C1/fit.log 2>&1
[ -f $OUT/C1/weights.npz ] || .venv/bin/python training/gammon_window/contact_only.py $G1C \
  $OUT/C1/fit/weights.npz $OUT/C1/weights.npz
mkdir -p $OUT/C1x
[ -f $OUT/C1x/weights.npz ] || .venv/bin/python training/gammon_window/contact_only.py $G1C \
  $OUT/C1/fit/weights.npz $OUT/C1x/weights.npz 0 2
