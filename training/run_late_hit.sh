#!/bin/bash
# late_hit: the deep5 net (d6) refined three times on our own 0-ply rollouts of late-hit
# positions (gammon.ai.lopsided --source late-hit), each time mixed with 1,000,000 sibling
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

# The anchor: N6's 0-ply values of 1,000,000 sibling positions of d6's self-play (180 s).
[ -f $D/N6.npz ] || .venv/bin/python -m gammon.ai.ensemble --out $D/N6.npz \
  $M/{n3805,n5375,nd2,n42,n52,w512}/weights.npz
[ -f $D/dn_912.npz ] || NUMBA_NUM_THREADS=1 .venv/bin/python training/deep3/distill_data.py \
  $D/N6.npz 1000000 912 $D/dn_912.npz --collector $M/d6/weights.npz

# round NAME BASE SEED_A SEED_B FIT_SEED: 10,000 late-hit positions a seed rolled out with
# BASE (324 trials each, one process a seed, 0.12 s a position), then 4 epochs from BASE on
# the anchor and the rollouts four times over (70 s).
round() {
  local name=$1 base=$2 a=$3 b=$4 fit_seed=$5 s
  for s in $a $b; do
    NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon.ai.lopsided --source late-hit \
      --base "$base" --out $D/s$s --positions 10000 --trials 324 --epochs 0 --seed $s \
      > $OUT/$name/rollouts_s$s.log 2>&1 &
  done
  wait
  local A=$D/s$a/dataset.npz B=$D/s$b/dataset.npz
  NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon.ai.refine_fit --base "$base" \
    --data $D/dn_912.npz $A $A $A $A $B $B $B $B --out $OUT/$name --epochs 4 --lr 3e-4 \
    --lr-end 1e-5 --batch 256 --holdout 0.02 --seed "$fit_seed" > $OUT/$name/fit.log 2>&1
}

[ -f $OUT/L1/weights.npz ] || round L1 $M/d6/weights.npz 11 12 1
[ -f $OUT/L2/weights.npz ] || round L2 $OUT/L1/weights.npz 13 14 2
[ -f $OUT/L3/weights.npz ] || round L3 $OUT/L2/weights.npz 15 16 3
