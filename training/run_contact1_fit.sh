#!/bin/bash
# contact1 round K1 (issue 36): C2 refined on the contact1 rollouts (training/run_contact1.sh)
# beside an anchor that keeps it where it was elsewhere.  The earlier rounds' anchor
# (training/late-hit-data/dn_912.npz, N6's values of 1,000,000 sibling positions) and their
# late-hit and cube-window rollouts were not on the machine that fitted K1, so the anchor is
# C2's own 0-ply values of 250,000 sibling positions of C2's 0-ply self-play (10% random
# plays; training/deep3/distill_data.py, seed 936, about a minute).  Seeds 41-44 (5,000
# finished positions each) are fitted four times over, as the earlier rounds fitted theirs;
# seed 45 is held out for benchmarks/rollout_fit.py.  Results: training/README.md, "contact1
# round K1: what it gained".  Variants: SEEDS, REPS (copies of each rollout dataset), LR,
# OUT.  Resumable: an anchor or a fit already made is kept.
set -e
cd "$(dirname "$0")/.."
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH} NUMBA_NUM_THREADS=1
PY=${PY:-.venv/bin/python}
D=training/contact1 BASE=training/cube_window/C2/weights.npz
OUT=${OUT:-$D/K1} SEEDS=${SEEDS:-41 42 43 44} REPS=${REPS:-4} LR=${LR:-3e-4}
ANCHOR=$D/anchor/dc2_936.npz
# C2 is the shipped net byte for byte (training/MANIFEST.sha256).
if [ ! -f $BASE ]; then mkdir -p "$(dirname $BASE)"; cp src/gammon/ai/data/weights.npz $BASE; fi
mkdir -p $D/anchor "$OUT"
[ -f $ANCHOR ] || nice -n 10 "$PY" training/deep3/distill_data.py $BASE 250000 936 $ANCHOR \
  --collector $BASE > $D/anchor/gen_936.log 2>&1
data=()
for s in $SEEDS; do for ((i = 0; i < REPS; i++)); do data+=("$D/data/s$s/dataset.npz"); done; done
[ -f "$OUT/weights.npz" ] || nice -n 10 "$PY" -m gammon train refine-fit --base $BASE \
  --data $ANCHOR "${data[@]}" --out "$OUT" --epochs 4 --lr "$LR" --lr-end 1e-5 --batch 256 \
  --holdout 0.02 --seed 36 > "$OUT/fit.log" 2>&1
