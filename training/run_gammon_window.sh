#!/bin/bash
# gammon_window (stop 55): the 0-ply net (F256, weights-standard-0ply.npz) refined on our own
# 0-ply rollouts of cube-window positions, beside an anchor of its own values.  Why: of the cube
# loss GNU Backgammon's 2-ply analysis flags in the expert's matches, 57% is in decisions our
# cube code gets right when fed GNU Backgammon's probabilities, the largest of them gammonish
# positions whose gammons our 0-ply net puts low (benchmarks/results/cube_formula.txt); the
# cube-window round (training/cube_window, C2) taught the same kind of positions from our own
# rollouts and cut the expert's cube error 4.4 -> 3.3.
# G1: 8,000 cube-window positions a seed (seeds 41, 42) of F256's own 0-ply self-play, rolled out
# to the end by F256 (216 trials); the anchor is F256's own 0-ply values of 1,000,000 sibling
# positions of its self-play (seed 955: it holds the rest of the game where it is, as the N6
# anchor did for C2); 4 epochs from F256, the rollouts counted four times.
# Resumable: each dataset made is kept (training/g1-data), the fit reruns in about 3 minutes.
set -e
cd "$(dirname "$0")/.."
F256=src/gammon/ai/data/weights-standard-0ply.npz OUT=training/gammon_window D=training/g1-data
mkdir -p $OUT/G1 $D
[ -f $D/anchor.npz ] || NUMBA_NUM_THREADS=1 .venv/bin/python training/deep3/distill_data.py \
  $F256 1000000 955 $D/anchor.npz --collector $F256 > $OUT/anchor.log 2>&1 &
for s in 41 42; do
  [ -f $D/s$s/dataset.npz ] || NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon train lopsided \
    --source cube-window --base $F256 --out $D/s$s --positions 8000 --trials 216 --epochs 0 --seed $s \
    > $OUT/rollouts_s$s.log 2>&1 &
done
wait
data=()
for s in 41 42; do data+=($D/s$s/dataset.npz $D/s$s/dataset.npz $D/s$s/dataset.npz $D/s$s/dataset.npz); done
[ -f $OUT/G1/weights.npz ] || NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon train refine-fit --base $F256 \
  --data $D/anchor.npz "${data[@]}" --out $OUT/G1 --epochs 4 --lr 3e-4 --lr-end 1e-5 --batch 256 \
  --holdout 0.02 --seed 43 > $OUT/G1/fit.log 2>&1
# G1c: G1's contact net over F256's race and crashed nets (the rollouts are contact positions).
mkdir -p $OUT/G1c
[ -f $OUT/G1c/weights.npz ] || .venv/bin/python training/gammon_window/contact_only.py $F256 $OUT/G1/weights.npz \
  $OUT/G1c/weights.npz
