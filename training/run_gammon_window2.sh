#!/bin/bash
# gammon_window round 2 (stop 56): the shipped 0-ply net G1c refined again on its own rollouts of
# cube-window positions.  Why: G1c cut the expert's cube error 4.2 -> 1.8 (seed 1) and 3.5 -> 1.4
# (seed 2), and as the world-class level's cube net it cut that level's cube error too
# (benchmarks/results/match_pr_world-class_cube2_cube0ply.txt); the round asks whether twice the
# rollouts gain more.
# G2: 8,000 more cube-window positions a seed (seeds 43, 44) of G1c's own 0-ply self-play, rolled
# out to the end by G1c (216 trials); the anchor is G1c's own 0-ply values of 1,000,000 sibling
# positions of its self-play (seed 956); 4 epochs from G1c over the anchor and all four rollout
# sets (round 1's seeds 41, 42, rolled out by F256, and these), each counted four times.  Only the
# contact net is kept (contact_only.py), as in round 1.
# Resumable: each dataset made is kept (training/g2-data; round 1's in training/g1-data).
set -e
cd "$(dirname "$0")/.."
G1C=src/gammon/ai/data/weights-standard-0ply.npz OUT=training/gammon_window D=training/g2-data D1=training/g1-data
mkdir -p $OUT/G2 $D
[ -f $D/anchor.npz ] || NUMBA_NUM_THREADS=1 nice -n 19 .venv/bin/python training/deep3/distill_data.py \
  $G1C 1000000 956 $D/anchor.npz --collector $G1C > $OUT/G2/anchor.log 2>&1 &
for s in 43 44; do
  [ -f $D/s$s/dataset.npz ] || NUMBA_NUM_THREADS=1 nice -n 19 .venv/bin/python -m gammon train lopsided \
    --source cube-window --base $G1C --out $D/s$s --positions 8000 --trials 216 --epochs 0 --seed $s \
    > $OUT/G2/rollouts_s$s.log 2>&1 &
done
wait
data=()
for f in $D1/s41 $D1/s42 $D/s43 $D/s44; do data+=($f/dataset.npz $f/dataset.npz $f/dataset.npz $f/dataset.npz); done
[ -f $OUT/G2/fit/weights.npz ] || NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon train refine-fit --base $G1C \
  --data $D/anchor.npz "${data[@]}" --out $OUT/G2/fit --epochs 4 --lr 3e-4 --lr-end 1e-5 --batch 256 \
  --holdout 0.02 --seed 45 > $OUT/G2/fit.log 2>&1
[ -f $OUT/G2/weights.npz ] || .venv/bin/python training/gammon_window/contact_only.py $G1C \
  $OUT/G2/fit/weights.npz $OUT/G2/weights.npz
