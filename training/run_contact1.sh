#!/bin/bash
# contact1: our own truncated, variance-reduced 0-ply rollouts of contact positions, to refine
# the shipped net C2 (training/cube_window/C2) where its checker play loses most.  Why: GNU
# Backgammon's 2-ply grading of our 0-ply choices (benchmarks/results/judge_0ply.txt) costs
# 6.2 mp a decision in contact positions (595 of the 1,000 decisions, 79% of the loss) against
# 2.2 in races and 1.2 in the bear-off; issue 36 asks for 3.5 over all.
#
# Positions: gammon.training.lopsided --source contact-siblings, the results of C2's 5 best plays of
# a random roll in its own 0-ply self-play (what a 0-ply net must rank), races left out.
# Targets: C2's 0-ply rollouts, 36 trials (each first roll once), truncated after 10 plies
# where C2's value stands in, the luck of every roll taken off (about 0.6 s a position on one
# core; the equity's standard error is about 0.01, a full-game rollout of 216 trials about
# 0.09 in the same time).  Nothing of another engine's is used.
#
# One process, one core: the seeds are rolled out one after another, $POSITIONS a seed, into
# training/contact1/data/sSEED/dataset.npz (local), saved every 100 positions.  Rerun the
# script to resume: a finished seed (its meta.json) is skipped and an unfinished one carries
# on from its last save.  Every 100 positions a line goes to training/contact1/progress.log
# (done, s/position, positions a minute, ETA of the seed).  Start it in the background with
#   PY=.venv/bin/python nohup setsid nice -n 19 training/run_contact1.sh \
#     > training/contact1/nohup.out 2>&1 < /dev/null &
# and stop it with kill -- -$(cat training/contact1/run.pid) (its process group).
# Fit afterwards (not done here): training/README.md, section contact1.
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH} NUMBA_NUM_THREADS=1
PY=${PY:-.venv/bin/python}
OUT=training/contact1 BASE=training/cube_window/C2/weights.npz
POSITIONS=${POSITIONS:-5000}
SEEDS=${SEEDS:-$(seq 41 60)}
mkdir -p $OUT/data
echo $$ > $OUT/run.pid
# setsid gives the run an autogroup of its own, where nice alone does not yield the CPU to other
# sessions' work (measured: 72% of a core beside two test runs); the autogroup's nice does.
echo 19 > /proc/self/autogroup 2>/dev/null || true
# C2 is the shipped net byte for byte (training/MANIFEST.sha256): a fresh clone gets it from there.
if [ ! -f $BASE ]; then mkdir -p "$(dirname $BASE)"; cp src/gammon/ai/data/weights.npz $BASE; fi
for s in $SEEDS; do
  [ -f $OUT/data/s$s/meta.json ] && continue
  echo "== seed $s: $POSITIONS positions, started $(date -u +%FT%TZ)" >> $OUT/progress.log
  "$PY" -m gammon train lopsided --source contact-siblings --base $BASE --out $OUT/data/s$s \
    --positions "$POSITIONS" --trials 36 --truncate 10 --vr --epochs 0 --seed "$s" \
    >> $OUT/progress.log 2>&1
  echo "== seed $s finished $(date -u +%FT%TZ)" >> $OUT/progress.log
done
echo "== all seeds done $(date -u +%FT%TZ)" >> $OUT/progress.log
