#!/bin/bash
# late_hit: the deep5 net (d6) refined three times on our own 0-ply rollouts of late-hit
# positions (gammon.training.lopsided --source late-hit), each time mixed with 1,000,000 sibling
# positions labelled by d6's teacher N6 so that the rest of the game stays as it was.
# Round 1 (L1) rolls out with d6 and starts from it; round 2 (L2) rolls out with L1 and
# starts from L1; round 3 (L3) rolls out with L2 and starts from L2.  Every step keeps what
# it has made (rollouts are saved every 100 positions and a finished dataset is reused), so
# rerunning the script resumes it.  Datasets go to training/late-hit-data/ (local, not
# committed); each round's net, metadata and logs to training/late_hit/L1, L2 and L3.
# About 20 minutes of both cores a round.
set -e
cd "$(dirname "$0")/.."
D=training/late-hit-data M=training/deep5/members OUT=training/late_hit
mkdir -p $D $OUT/L1 $OUT/L2 $OUT/L3

# The anchor: N6's 0-ply values of 1,000,000 sibling positions of d6's self-play
# (anchor in training/deep_round.sh, about 4 minutes).
. training/deep_round.sh
anchor

# Each round: 10,000 late-hit positions a seed rolled out with its base (324 trials, 0.12 s a
# position), then 4 epochs from the base on the anchor and the rollouts (70 s): rollout_round
# in training/deep_round.sh.
[ -f $OUT/L1/weights.npz ] || rollout_round $OUT/L1 late-hit $M/d6/weights.npz 10000 324 1 11 12
[ -f $OUT/L2/weights.npz ] || rollout_round $OUT/L2 late-hit $OUT/L1/weights.npz 10000 324 2 13 14
[ -f $OUT/L3/weights.npz ] || rollout_round $OUT/L3 late-hit $OUT/L2/weights.npz 10000 324 3 15 16
