#!/usr/bin/env bash
# deep8: the shipped 0-ply net's contact net widened and refined on deep7's 1,480,500 rows
# (Q7's pruned 2-ply values of sibling positions), four settings at once on a lent GPU
# machine (training/torch_fit.py; each fit a process of its own, BUDGET seconds each).
# Run from the repository root there, with the two deep7 datasets in .gpu/ (carried):
#   OUT=... BUDGET=360 training/deep8/run_gpu_sweep.sh
# A smoke fit on 3,000 rows runs first (it compiles the numba kernels once, for all four, and
# checks PyTorch on the GPU); the sweep starts only if it succeeds.
set -euo pipefail
export PYTHONUNBUFFERED=1
BUDGET=${BUDGET:-360}
OUT=${OUT:?}
BASE=src/gammon/ai/data/weights-standard-0ply.npz
DATA=".gpu/s71.npz .gpu/s72.npz"
python3 -c "import sys, numpy, numba, torch; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__, 'torch', torch.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '-')"
nproc
python3 training/torch_fit.py --base $BASE --data .gpu/s71.npz --out /tmp/smoke --hidden 512 --budget 3 --rows 3000
fit() {  # NAME HIDDEN LR LR_END
  local name=$1
  mkdir -p "$OUT/$name"
  python3 training/torch_fit.py --base $BASE --data $DATA --out "$OUT/$name" --hidden "$2" --lr "$3" \
    --lr-end "$4" --budget "$BUDGET" --rank-weight 10 --batch 256 --holdout 0.02 --seed 66 \
    > "$OUT/$name/fit.log" 2>&1
}
fit A512 512 1e-3 1e-5 &
fit B512 512 3e-4 1e-5 &
fit C384 384 1e-3 1e-5 &
fit D256 256 3e-4 1e-6 &
wait
for n in A512 B512 C384 D256; do echo "== $n"; head -n 2 "$OUT/$n/fit.log"; tail -n 3 "$OUT/$n/fit.log"; done
