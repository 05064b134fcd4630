#!/bin/bash
# Shared setup of the full-game rollout rounds (training/run_rollout1.sh, training/run_cube2.sh):
# source it after setting OUT (the round's committed folder) and D (its local datasets).
# Sets PY, G1C (the checker-play net), CUBE (the cube net) and N (rows per seed, default
# 100000), one numba thread per process, and defines gen.
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH} NUMBA_NUM_THREADS=1
PY=${PY:-.venv/bin/python}
G1C=src/gammon/ai/data/weights-standard-0ply.npz CUBE=src/gammon/ai/data/weights-standard-cube.npz
N=${N:-100000}
mkdir -p "$OUT" "$D"

# gen SOURCE NAME SEED POSITIONS TRIALS [FLAGS...]: positions of gammon train lopsided's SOURCE
# from G1c's self-play, rolled out to the end by G1c, into $D/NAME (resumable), its log
# $D/NAME.log; $NICE (default 19) is its niceness.
gen() {
  local src=$1 name=$2 s=$3 n=$4 t=$5; shift 5
  nice -n "${NICE:-19}" "$PY" -m gammon train lopsided --source "$src" --base $G1C --out "$D/$name" \
    --positions "$n" --trials "$t" --epochs 0 --seed "$s" "$@" > "$D/$name.log" 2>&1
}
