#!/bin/bash
# crashed1 (issue 36, stop 50): a third net for crashed positions (gammon.ai.encoding.is_crashed:
# in contact, a side down to six working checkers), added to the 0-ply net R5 (deep7).
# 1. Data: Q7's pruned 2-ply values of the results of Q7's 5 best plays of a random roll from
#    crashed positions of Q7's own 0-ply self-play (10% random plays, every position kept),
#    seeds 81 and 82, one process each, niced; stop them when enough is made (each resumes
#    from its last shard of 100 positions):
#      STEP=data training/run_crashed1.sh
#    Stop 50 ran them 25 minutes: 171,000 and 170,800 rows, 290,810 of them crashed (the rest
#    are race results of the same rolls).
# 2. The fit: R5 given a third net (a copy of its contact net) and that net trained on the
#    crashed rows alone, deep7's (72,202 of its 1,480,500 rows) and the generators' (X2):
#      STEP=fit training/run_crashed1.sh
#    A fit must run alone: X1's took 27 s an epoch on a fifth of these rows beside three other
#    jobs, X2's 2 s alone.
# The data stays local in $CRASHED_DIR (default training/crashed1-data); deep7's in
# $DEEP7_DIR (default training/deep7-data, training/run_deep6.sh); the weights go to
# training/crashed1/X2 (local; the shipped copy is src/gammon/ai/data/weights-standard-0ply.npz).
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
PY=${PY:-.venv/bin/python}
D=${CRASHED_DIR:-training/crashed1-data}
D7=${DEEP7_DIR:-training/deep7-data}
case "${STEP:-data}" in
data)
  for s in ${SEEDS:-81 82}; do
    mkdir -p "$D/s$s"
    # the group itself niced (see run_deep6.sh: a setsid job is a scheduling group of its own)
    NUMBA_NUM_THREADS=1 nohup setsid sh -c 'echo 10 > /proc/self/autogroup 2>/dev/null; exec nice -n 10 "$0" "$@"' \
      "$PY" -m gammon train refine --base src/gammon/ai/data/weights.npz \
      --positions 1000000 --plies 2 --prune 5 --epochs 0 --seed $s --siblings 5 --keep 1.0 \
      --crashed-only --shard 100 --out "$D/s$s" >> "$D/gen_s$s.log" 2>&1 < /dev/null &
    echo $! > "$D/s$s.pid"
  done
  ;;
fit)
  mkdir -p training/crashed1/X2
  NUMBA_NUM_THREADS=2 "$PY" -m gammon train refine-fit --base training/deep7/R5/weights.npz \
    --add-crashed-net --only-crashed \
    --data "$D7/s71/dataset.npz" "$D7/s72/dataset.npz" "$D/s81/dataset.npz" "$D/s82/dataset.npz" \
    --out training/crashed1/X2 --epochs 32 --lr 1e-3 --lr-end 1e-5 --batch 256 --holdout 0.02 \
    --seed 66 --rank-weight 10 > training/crashed1/X2/fit.log 2>&1
  ;;
esac
