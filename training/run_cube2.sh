#!/bin/bash
# cube2 (stop 63): the cube net C1x refined on full-game rollouts of cube-window positions.
# Why: the cube replay's error (5,280 stored decisions of the expert's matches, re-decided by
# the cube look-ahead two rolls ahead and costed by GNU Backgammon's cubeful equities) is 2.266
# EMG with C1x, 2.194 of it in contact positions; the five costliest decisions hold about a third,
# each a value ours and GNU Backgammon's disagree on by 0.04 to 0.28.  On 400 cube-window
# positions of G1c's self-play rolled out by G1c (seed 7, 36 trials with variance reduction)
# C1x is 0.0605 from the rollouts in equity (mean absolute) where GNU Backgammon's 0-ply net,
# measuring only, is 0.0459; rollout1's F1, fitted on sibling positions, 0.0588: the cube window
# is not where that round's rows were.  The last cube-window rounds (gammon_window, 16,000
# positions at 216 trials) were made before the rollouts became four times faster.
# Data (resumable; each dataset saved every 100 positions, the fit uses the finished rows):
#   cube-window positions of G1c's own 0-ply self-play, rolled out to the end by G1c at 0-ply,
#   72 trials without variance reduction (about 0.05 s a position): seeds 71 and 72, stopped at
#   the session's end (the logs give the counts); held out: seed 7, 400 positions, 36 trials
#   with variance reduction (h7).
#   anchor: C1x's own 0-ply values of 300,000 sibling positions of its self-play (seed 630).
# Fit (C2): 4 epochs of refine-fit from C1x over the anchor and each rollout dataset four times,
#   3e-4 to 1e-5, batch 256, seed 63; C2x keeps the fitted contact and crashed nets over C1x's
#   race net (training/gammon_window/contact_only.py ... 0 2), as C1x was made.
#   STEP=data training/run_cube2.sh   (N=rows per seed, default 100000)
#   STEP=fit  training/run_cube2.sh
set -e
cd "$(dirname "$0")/.."
OUT=training/cube2 D=training/cube2-data NICE=5
. training/rollout_round.sh
case "${STEP:-data}" in
data)
  [ -f $D/h7/meta.json ] || gen cube-window h7 7 400 36 --vr
  [ -f $D/anchor/meta.json ] || nice -n 10 "$PY" -m gammon train refine --base $CUBE --plies 0 --siblings 5 \
    --positions 300000 --epochs 0 --seed 630 --out $D/anchor > $D/anchor.log 2>&1
  ( gen cube-window s71 71 "$N" 72 ) &
  ( gen cube-window s72 72 "$N" 72 ) &
  wait
  ;;
fit)
  # one committed log: each dataset's progress under its own header
  for name in h7 anchor s71 s72; do echo; echo "== $name"; cat $D/$name.log; done > $OUT/rollouts.log
  data=($D/anchor/dataset.npz)
  for s in 71 72; do for k in 1 2 3 4; do data+=($D/s$s/dataset.npz); done; done
  mkdir -p $OUT/C2 $OUT/C2x
  NUMBA_NUM_THREADS=2 "$PY" -m gammon train refine-fit --base $CUBE --data "${data[@]}" --out $OUT/C2/fit \
    --epochs 4 --lr 3e-4 --lr-end 1e-5 --batch 256 --holdout 0.02 --seed 63 > $OUT/C2/fit.log 2>&1
  "$PY" training/gammon_window/contact_only.py $CUBE $OUT/C2/fit/weights.npz $OUT/C2x/weights.npz 0 2
  "$PY" benchmarks/rollout_fit.py $CUBE $OUT/C2x/weights.npz --data $D/h7/dataset.npz --gnubg > $OUT/heldout.txt
  ;;
esac
