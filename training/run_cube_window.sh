#!/bin/bash
# cube_window: the shipped net (L2, training/late_hit) refined on our own 0-ply rollouts of
# cube-window positions (gammon.training.lopsided --source cube-window: contact self-play
# positions where the player on roll stands in the doubling window by the net), beside the
# same anchor as the late-hit rounds.  Why: the expert's wrong takes on seed 1 (2.46 of
# 5.13 EMG) come from positions where the 0-ply net valued the doubler 0.03 too low in wins
# and gammons; our own 0-ply rollouts of the same positions were within 0.01 of GNU
# Backgammon's 2-ply analysis (training/cube_window/README.md).
# Round C1: 8,000 positions a seed (seeds 21, 22), 216 trials, rolled out with L2 and
# fitted from L2 (about 25 minutes of both cores).
# Round C2: C1 forgot the late-hit fix (it was not in its data), so C2 fits from L2 on the
# same cube-window rollouts and L2's rollouts of the first 5,000 late-hit positions of each
# of L3's seeds (15, 16; 324 trials; remade here when missing, about 10 minutes of both cores).
# Resumable like run_late_hit.sh (the datasets live in training/late-hit-data/).
set -e
cd "$(dirname "$0")/.."
. training/deep_round.sh
anchor
OUT=training/cube_window L2=training/late_hit/L2/weights.npz
[ -f $OUT/C1/weights.npz ] || rollout_round $OUT/C1 cube-window $L2 8000 216 4 21 22
if [ ! -f $OUT/C2/weights.npz ]; then
  rollouts $OUT/C2 cube-window $L2 8000 216 21 22  # C1's (reused when present)
  rollouts $OUT/C2 late-hit $L2 5000 324 15 16
  fit_rollouts $OUT/C2 $L2 5 21 22 15 16
fi
