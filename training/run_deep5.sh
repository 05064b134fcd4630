#!/bin/bash
# deep5: a third round of deep3's recipe (training/deep3/README.md), over the deep4 net.
# 1. More 2-ply sibling datasets, valued by the search over the deep4 net (the shipped
#    weights of 2026-12-02 later, copied to training/deep3-data/d3.npz), seeds 37 and 38:
#      STEP=data training/run_deep5.sh
# 2. The five deep4 members refined further on all six sibling datasets (c, d, e, f, g, h),
#    two at a time, warm-started from their deep4 weights:
#      STEP=members training/run_deep5.sh
# 3. The ensemble of the five and its distillation: see training/deep5/README.md.
# Local data, compressed and resumable; one numba thread per process.
cd "$(dirname "$0")/.."
mkdir -p training/deep5/members
D=training/deep3-data
case "${STEP:-data}" in
data)
  for part in g:37 h:38; do
    name=${part%%:*}; seed=${part##*:}
    mkdir -p "$D/$name"
    NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon.ai.refine \
      --base "$D/d3.npz" --positions 1000000 --plies 2 --prune 5 --epochs 0 --seed "$seed" \
      --siblings 5 --out "$D/$name" >> "training/deep5/gen_$name.txt" 2>&1 &
    echo "$!" > "$D/$name.pid"
  done
  wait ;;
members)
  # name seed epochs; each starts from its deep4 member
  cat <<LIST | xargs -P 2 -L 1 bash -c 'NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon.ai.refine_fit \
      --base "training/deep4/members/$0/weights.npz" --data '"$D"'/c/dataset.npz '"$D"'/d/dataset.npz \
      '"$D"'/e/dataset.npz '"$D"'/f/dataset.npz '"$D"'/g/dataset.npz '"$D"'/h/dataset.npz \
      --out "training/deep5/members/$0" --epochs "$2" --lr 5e-4 --lr-end 1e-5 --batch 128 --seed "$1" \
      > "training/deep5/members/$0.log" 2>&1'
${MEMBERS:-n3805 81 4
n5375 82 4
nd2 83 4
n42 84 4
n52 85 4}
LIST
  ;;
esac
