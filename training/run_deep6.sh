#!/bin/bash
# deep6 (issue 36): the shipped net C2 refined on values of its own pruned 2-ply search.
# The deep rounds' recipe (training/deep_round.sh) with C2 as the net whose search values the
# positions; their datasets (training/deep3-data) are not on the machine any more, so this
# round makes new ones:
# 1. Sibling datasets (the results of C2's 5 best plays of a random roll in its own 0-ply
#    self-play, 10% random plays), valued by the pruned 2-ply search over C2, seeds 61 and 62,
#    one process each, nice'd; stop them when enough is made (each resumes from its last
#    shard of 500 positions, and a fit uses every finished shard):
#      STEP=data training/run_deep6.sh
# 2. C2 refined on them, 4 epochs of Adam, 2% held out: R1 on the cross-entropy alone (3e-4 to
#    1e-5), Q3 with the ranking term as well (--rank-weight 10, 1e-3 to 1e-5; whole sibling
#    groups held out, so the log gives the held-out choices and regret before and after):
#      STEP=fit training/run_deep6.sh
#    Q7, the net shipped from this round: the same as Q3 over 16 epochs (Q4: 8 epochs; the
#    other variants of training/README.md's table: their commands are in their meta.json).
# The data stays local in $DEEP6_DIR (default training/deep6-data); the fit's weights
# go to training/deep6/R1 and Q3 (local too; a net's sha256 goes to MANIFEST.sha256 if it is kept).
# The snapshot fits P1, Q1 and Q2 (training/README.md) used the first 378,500 rows.
# The next round (deep7) makes new rows over the shipped net, Q7, with the same step:
#   BASE=src/gammon/ai/data/weights.npz SEEDS="71 72" DEEP6_DIR=training/deep7-data STEP=data training/run_deep6.sh
# POSITIONS (default 1,000,000) and REFINE_ARGS (more `gammon train refine` options, e.g.
# "--variant nackgammon": training/run_nackgammon6.sh) change the data step.
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
PY=${PY:-.venv/bin/python}
D=${DEEP6_DIR:-training/deep6-data}
# C2, the net shipped when the round began (MANIFEST.sha256; training/README.md: how to restore
# a checkpoint from git's history); the shipped net is now the round's Q7
BASE=${BASE:-training/cube_window/C2/weights.npz}
case "${STEP:-data}" in
data)
  for s in ${SEEDS:-61 62}; do
    mkdir -p "$D/s$s"
    # shellcheck disable=SC2086  # REFINE_ARGS is a list of options
    # A new session (setsid) is a scheduling group of its own (Linux's autogroup), where nice
    # counts only within the group: the group itself is niced, or the generators take a
    # fair share of the cores from every other job (measured in stop 46: 35-47% each).
    NUMBA_NUM_THREADS=1 nohup setsid sh -c 'echo 10 > /proc/self/autogroup 2>/dev/null; exec nice -n 10 "$0" "$@"' \
      "$PY" -m gammon train refine --base $BASE \
      --positions "${POSITIONS:-1000000}" --plies 2 --prune 5 --epochs 0 --seed $s --siblings 5 \
      ${REFINE_ARGS:-} --out "$D/s$s" >> "$D/gen_s$s.log" 2>&1 < /dev/null &
    echo $! > "$D/s$s.pid"
  done
  ;;
fit)
  fit() {  # fit OUT LR RANK_WEIGHT [EPOCHS]
    mkdir -p "$1"
    [ -f "$1/weights.npz" ] || NUMBA_NUM_THREADS=2 nice -n 5 "$PY" -m gammon train refine-fit \
      --base $BASE --data "$D/s61/dataset.npz" "$D/s62/dataset.npz" --out "$1" --epochs "${4:-4}" \
      --lr "$2" --lr-end 1e-5 --batch 256 --holdout 0.02 --seed 66 --rank-weight "$3" > "$1/fit.log" 2>&1
  }
  fit training/deep6/R1 3e-4 0
  fit training/deep6/Q3 1e-3 10
  fit training/deep6/Q7 1e-3 10 16
  fit training/deep6/Q9 1e-3 10 32  # stop 46: twice as long (a tie with Q7; not shipped)
  ;;
esac
