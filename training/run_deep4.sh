#!/bin/bash
# deep4: a second round of deep3 (training/deep3/README.md) with the distilled net of deep3.
# 1. More 2-ply sibling datasets, valued by the search over the deep3 net (the shipped
#    weights of 2026-12-02, copied to training/deep3-data/d2.npz), seeds 35 and 36:
#      STEP=data training/run_deep4.sh
# 2. New members refined on all four sibling datasets (c, d of deep3; e, f here), two at a
#    time, each from another TD net (or the deep3 net itself):
#      STEP=members training/run_deep4.sh
# 3. N5, the ensemble of the five, and its distillation: see training/deep4/README.md.
# td3805.npz is `git show e42ee8f:src/gammon/ai/data/weights.npz`.
# Local data, compressed and resumable; one numba thread per process.
cd "$(dirname "$0")/.."
mkdir -p training/deep4/members
D=training/deep3-data
case "${STEP:-data}" in
data)
  for part in e:35 f:36; do
    name=${part%%:*}; seed=${part##*:}
    mkdir -p "$D/$name"
    NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon.ai.refine \
      --base "$D/d2.npz" --positions 1000000 --plies 2 --prune 5 --epochs 0 --seed "$seed" \
      --siblings 5 --out "$D/$name" >> "training/deep4/gen_$name.txt" 2>&1 &
    echo "$!" > "$D/$name.pid"
  done
  wait ;;
members)
  # name base seed epochs (deep4 ran the first two together, then the other three; 6 epochs
  # for those to save time: their held-out excess loss ends as low as the first two's)
  cat <<LIST | xargs -P 2 -L 1 bash -c 'NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon.ai.refine_fit \
      --base "$1" --data '"$D"'/c/dataset.npz '"$D"'/d/dataset.npz '"$D"'/e/dataset.npz '"$D"'/f/dataset.npz \
      --out "training/deep4/members/$0" --epochs "$3" --lr 1e-3 --lr-end 1e-5 --batch 128 --seed "$2" \
      > "training/deep4/members/$0.log" 2>&1'
n3805 $D/td3805.npz 71 12
n5375 training/td1/checkpoint.npz 72 12
nd2 $D/d2.npz 77 6
n42 training/td1/snapshots/games-004200000.npz 74 6
n52 training/td1/snapshots/games-005200000.npz 76 6
LIST
  ;;
esac
