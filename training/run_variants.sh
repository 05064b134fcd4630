#!/bin/sh
# Fine-tune the shipped standard net by self-play in each variant (see training/README.md).
# Two chains run side by side; each run is resumable (rerun this script).
# Usage: training/run_variants.sh   (from the repository root)
set -u
PY=${PY:-.venv/bin/python}
W=src/gammon/ai/data/weights.npz
run() {  # variant out games alpha
    mkdir -p "$2"
    # A run there continues (--resume); otherwise it starts beside its log (--force).
    if [ -f "$2/checkpoint.npz" ]; then again=--resume; else again=--force; fi
    NUMBA_NUM_THREADS=1 nice -n 15 "$PY" -m gammon train td --variant "$1" --out "$2" \
        --games "$3" --alpha "$4" --init "$W" "$again" --checkpoint-every 2000 \
        --log-every 1000 --eval-every 5000 --eval-games 200 --snapshot-every 0 \
        >> "$2/train.log" 2>&1
}
( run hypergammon training/hypergammon 100000 0.05; run dutch training/dutch 30000 0.03 ) &
( run nackgammon training/nackgammon 40000 0.02; run acey-deucey training/acey-deucey 20000 0.03 ) &
wait
