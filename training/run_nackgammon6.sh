#!/bin/bash
# nackgammon6 (stop 60): the Nackgammon net remade over the standard game's checker-play net G1c.
# Why: since stop 59 G1c plays the standard game at every depth and plays every variant without
# a net of its own. The shipped Nackgammon net (nackgammon5's W10) was refined from Q7 and beat
# Q7 at Nackgammon (+0.016 +- 0.002 over 20,000 games), but it loses to G1c there:
# -0.008 and -0.009 +- 0.006 luck-adjusted over 2,000 games on seeds 9 and 2
# (benchmarks/results/nackgammon6.txt), so a Nackgammon player got a weaker net than the
# standard one. The recipe is nackgammon5's over G1c:
# 1. Sibling datasets of G1c's own Nackgammon self-play (the results of its 5 best plays of a
#    random roll, 10% random plays), each valued by G1c's pruned 2-ply search (prune 5); two
#    niced processes (seeds 61, 62; N positions each, default 210,000), each resuming from its
#    last shard of 500 positions:
#      STEP=data training/run_nackgammon6.sh
# 2. G1c refined on them as nackgammon5's W10 was (16 epochs of Adam, 1e-3 to 1e-5, batch 256,
#    the ranking term W 10, whole sibling groups held out, 2% held out, seed 66):
#      STEP=fit training/run_nackgammon6.sh            # OUT=training/nackgammon6/N1 by default
# 3. Measure against G1c at Nackgammon before anything ships:
#      python benchmarks/variant_nets.py --variant nackgammon --games 2000 --seed S \
#        --net training/nackgammon6/N1/weights.npz --standard src/gammon/ai/data/weights-standard-0ply.npz
# The datasets stay local in training/nackgammon6-data, the weights in training/nackgammon6 (a
# shipped net's sha256 goes to MANIFEST.sha256).
set -e
cd "$(dirname "$0")/.."
D=${NACK6_DIR:-training/nackgammon6-data}
BASE=${BASE:-src/gammon/ai/data/weights-standard-0ply.npz}
SEEDS=${SEEDS:-61 62}
case "${STEP:-data}" in
data)  # deep6's data step (niced generators, resumable), over G1c, in Nackgammon
  BASE=$BASE SEEDS="$SEEDS" DEEP6_DIR=$D POSITIONS=${N:-210000} REFINE_ARGS="--variant nackgammon" \
    STEP=data training/run_deep6.sh
  ;;
fit)  # deep9's fit (the same settings) over these datasets, 16 epochs as W10's
  DEEP9_DIR=$D SEEDS="$SEEDS" BASE=$BASE OUT=${OUT:-training/nackgammon6/N1} EPOCHS=${EPOCHS:-16} \
    STEP=fit training/run_deep9.sh
  ;;
esac
