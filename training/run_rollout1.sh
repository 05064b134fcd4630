#!/bin/bash
# rollout1 (stop 62): the 0-ply net G1c's own full-game rollouts of sibling positions, many of
# them, and fits of G1c (and of the cube net C1x) on them.  training/rollout1/README.md.
# Why: on 1,000 held-out sibling positions of G1c's self-play (seed 8) G1c's 0-ply equity is
# 0.094 RMS from its own full-game rollouts (72 trials with variance reduction), where GNU
# Backgammon's 0-ply net, only measuring, is 0.062 from the same rollouts; G1c is over-confident
# where the side on roll leads the race by 40 pips or more (bias +0.086).  Rollouts truncated
# after 10 plies (contact1's targets, round K1) sit closer to the net than to the full rollouts:
# they inherit the net's own error.
# Data (each saved every 100 positions; a rerun resumes, a fit uses every finished row; the
# progress of each in training/rollout1/rollouts.log):
#   contact: contact-siblings (the results of G1c's 5 best plays of a random roll in its own
#     0-ply self-play, the next player on roll), rolled out to the end by G1c at 0-ply, 72
#     trials without variance reduction (0.03 to 0.04 s a position): seeds 81 and 82 (stopped at
#     77,900 and 54,400 rows); held out: seed 8, 1,000 positions, 72 trials with variance
#     reduction (about 1 s a position).
#   races: race-siblings (the same, races the race net values), 72 trials: seeds 91 (40,000) and
#     92 (100,000), folders r91 and r92; held out: seed 9 (r9), 1,000 positions with variance
#     reduction.
# Fits (4 epochs of refine-fit, 3e-4 to 1e-5, batch 256, seed 62; about a minute each):
#   F1: G1c on the rollouts as they are; F2: the contact rollouts level-shifted first
#   (training/rollout1/level_shift.py: G1c's own values moved by each sibling group's mean of
#   rollout minus G1c); FC: the cube net C1x on the rollouts as they are.
#   STEP=data training/run_rollout1.sh   (N=rows per seed, default 100000)
#   STEP=fit  training/run_rollout1.sh
set -e
cd "$(dirname "$0")/.."
OUT=training/rollout1 D=training/rollout1-data
. training/rollout_round.sh
case "${STEP:-data}" in
data)
  echo $$ > $OUT/run.pid
  ( gen contact-siblings s81 81 "$N" 72 ) &
  ( gen contact-siblings s8 8 1000 72 --vr; gen contact-siblings s82 82 "$N" 72 ) &
  ( gen race-siblings r9 9 1000 72 --vr; gen race-siblings r91 91 40000 72
    gen race-siblings r92 92 "$N" 72 ) &
  wait
  # one committed log: each dataset's progress under its own header
  for name in s81 s8 s82 r9 r91 r92; do echo; echo "== $name"; cat $D/$name.log; done > $OUT/rollouts.log
  ;;
fit)
  mkdir -p $OUT/F1 $OUT/F2 $OUT/FC $D/ls
  for s in 81 82; do
    "$PY" training/rollout1/level_shift.py $G1C $D/s$s/dataset.npz $D/ls/s$s.npz
  done > $OUT/level_shift.log 2>&1
  fit() {  # base out data...
    local base=$1 out=$2; shift 2
    "$PY" -m gammon train refine-fit --base "$base" --data "$@" --out "$out" --epochs 4 --lr 3e-4 \
      --lr-end 1e-5 --batch 256 --holdout 0.02 --seed 62 > "$out/fit.log" 2>&1
  }
  races=($D/r91/dataset.npz $D/r92/dataset.npz)
  fit $G1C $OUT/F1 $D/s81/dataset.npz $D/s82/dataset.npz "${races[@]}" &
  fit $G1C $OUT/F2 $D/ls/s81.npz $D/ls/s82.npz "${races[@]}" &
  wait
  fit $CUBE $OUT/FC $D/s81/dataset.npz $D/s82/dataset.npz "${races[@]}"
  ;;
esac
