#!/bin/bash
# Shared steps of the deep rounds (training/run_deep4.sh, training/run_deep5.sh): source it.
# sibling_data, fit_members and distill are a round's three steps.
# Run from the repository root; one numba thread per process, nice'd so other work goes on.

# sibling_data BASE LOG_DIR NAME:SEED[:POSITIONS]...: one 2-ply sibling dataset per NAME
# under $SIBLING_DIR/NAME (default training/deep3-data), valued by the pruned 2-ply search
# over BASE, all at once.  POSITIONS defaults to 1,000,000 (stop it when enough is made, it
# resumes from its last shard).  $SIBLING_ARGS: more gammon.training.refine options (a variant).
sibling_data() {
  local base=$1 logs=$2; shift 2
  local part name seed n D=${SIBLING_DIR:-training/deep3-data}
  for part in "$@"; do
    IFS=: read -r name seed n <<< "$part"
    mkdir -p "$D/$name"
    # shellcheck disable=SC2086  # SIBLING_ARGS is a list of options
    NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python -m gammon train refine \
      --base "$base" --positions "${n:-1000000}" --plies 2 --prune 5 --epochs 0 --seed "$seed" \
      --siblings 5 ${SIBLING_ARGS:-} --out "$D/$name" >> "$logs/gen_$name.txt" 2>&1 &
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
    NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon train refine-fit --base "$base" \
      --data '"$*"' --out "'"$out"'/$name" --epochs "$epochs" --lr '"$lr"' --lr-end 1e-5 \
      --batch 128 --seed "$seed" "$@" > "'"$out"'/$name.log" 2>&1'
}

# distill TEACHER BASE OUT FIT_SEED DATA_SEED...: the teacher's 0-ply values of 1,000,000
# sibling positions of the collector's (training/deep3-data/d3.npz) self-play per DATA_SEED
# (one process each; a dataset already made is kept), then a 256-unit student fitted on them
# from BASE into OUT (about 12 GB for 3,000,000 positions: one fit at a time).
distill() {
  local teacher=$1 base=$2 out=$3 fit_seed=$4 s D=training/deep3-data; shift 4
  local files=()
  for s in "$@"; do
    [ -f "$D/dn_$s.npz" ] || NUMBA_NUM_THREADS=1 .venv/bin/python training/deep3/distill_data.py \
      "$teacher" 1000000 "$s" "$D/dn_$s.npz" --collector "$D/d3.npz" &
    files+=("$D/dn_$s.npz")
  done
  wait
  NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon train refine-fit --base "$base" --data "${files[@]}" \
    --out "$out" --epochs 8 --lr 1e-3 --lr-end 1e-5 --batch 256 --holdout 0.02 \
    --seed "$fit_seed" > "$out.log" 2>&1
}

# rollouts OUT_DIR SOURCE BASE POSITIONS TRIALS SEED...: POSITIONS positions of
# gammon.training.lopsided's SOURCE a seed, rolled out to the end by BASE's 0-ply play (TRIALS
# trials each, one process a seed), kept in training/late-hit-data/sSEED (resumable; a
# finished dataset is reused); the logs go to OUT_DIR.
rollouts() {
  local out=$1 source=$2 base=$3 n=$4 trials=$5; shift 5
  local s D=training/late-hit-data
  mkdir -p "$out"
  for s in "$@"; do
    NUMBA_NUM_THREADS=1 nice -n 5 .venv/bin/python -m gammon train lopsided --source "$source" \
      --base "$base" --out $D/s$s --positions "$n" --trials "$trials" --epochs 0 --seed $s \
      > "$out/rollouts_s$s.log" 2>&1 &
  done
  wait
}

# fit_rollouts OUT_DIR BASE FIT_SEED SEED...: 4 epochs from BASE on the anchor
# (late-hit-data/dn_912.npz) and each rollout dataset late-hit-data/sSEED four times over
# (about 70 s); the net, its metadata and fit.log go to OUT_DIR.
fit_rollouts() {
  local out=$1 base=$2 fit_seed=$3; shift 3
  local s D=training/late-hit-data data=()
  for s in "$@"; do data+=($D/s$s/dataset.npz $D/s$s/dataset.npz $D/s$s/dataset.npz $D/s$s/dataset.npz); done
  NUMBA_NUM_THREADS=2 .venv/bin/python -m gammon train refine-fit --base "$base" \
    --data $D/dn_912.npz "${data[@]}" --out "$out" --epochs 4 --lr 3e-4 \
    --lr-end 1e-5 --batch 256 --holdout 0.02 --seed "$fit_seed" > "$out/fit.log" 2>&1
}

# rollout_round OUT_DIR SOURCE BASE POSITIONS TRIALS FIT_SEED SEED...: rollouts, then
# fit_rollouts from BASE on them.  Used by run_late_hit.sh and run_cube_window.sh.
rollout_round() {
  local out=$1 source=$2 base=$3 n=$4 trials=$5 fit_seed=$6; shift 6
  rollouts "$out" "$source" "$base" "$n" "$trials" "$@"
  fit_rollouts "$out" "$base" "$fit_seed" "$@"
}

# anchor: what a rollout round fits beside, so that the rest of the game stays as it was:
# training/late-hit-data/dn_912.npz, N6's 0-ply values of 1,000,000 sibling positions of
# d6's self-play (N6: the six deep5 members; about 4 minutes in all).
anchor() {
  local D=training/late-hit-data M=training/deep5/members
  mkdir -p $D
  [ -f $D/N6.npz ] || .venv/bin/python -m gammon train ensemble --out $D/N6.npz \
    $M/{n3805,n5375,nd2,n42,n52,w512}/weights.npz
  [ -f $D/dn_912.npz ] || NUMBA_NUM_THREADS=1 .venv/bin/python training/deep3/distill_data.py \
    $D/N6.npz 1000000 912 $D/dn_912.npz --collector $M/d6/weights.npz
}
