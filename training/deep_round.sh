#!/bin/bash
# Shared steps of the deep rounds (training/run_deep4.sh, training/run_deep5.sh): source it.
# Run from the repository root; one numba thread per process, nice'd so other work goes on.

# sibling_data BASE LOG_DIR NAME:SEED...: one 2-ply sibling dataset per NAME under
# training/deep3-data/NAME (1,000,000 positions asked for; stop it when enough is made, it
# resumes from its last shard), valued by the pruned 2-ply search over BASE.
sibling_data() {
  local base=$1 logs=$2; shift 2
  local part name seed D=training/deep3-data
  for part in "$@"; do
    name=${part%%:*}; seed=${part##*:}
    mkdir -p "$D/$name"
    NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon.ai.refine \
      --base "$base" --positions 1000000 --plies 2 --prune 5 --epochs 0 --seed "$seed" \
      --siblings 5 --out "$D/$name" >> "$logs/gen_$name.txt" 2>&1 &
    echo "$!" > "$D/$name.pid"
  done
  wait
}

# fit_members OUT_DIR LR DATASET...: refine one member per line of stdin,
# "name base seed epochs [more refine_fit options]", two at a time, into OUT_DIR/name.
fit_members() {
  local out=$1 lr=$2; shift 2
  mkdir -p "$out"
  xargs -P 2 -L 1 bash -c 'name=$0 base=$1 seed=$2 epochs=$3; shift 3
    NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon.ai.refine_fit --base "$base" \
      --data '"$*"' --out "'"$out"'/$name" --epochs "$epochs" --lr '"$lr"' --lr-end 1e-5 \
      --batch 128 --seed "$seed" "$@" > "'"$out"'/$name.log" 2>&1'
}
