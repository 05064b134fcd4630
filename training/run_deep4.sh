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
# Local data, compressed and resumable.
cd "$(dirname "$0")/.."
. training/deep_round.sh
D=training/deep3-data
case "${STEP:-data}" in
data) sibling_data "$D/d2.npz" training/deep4 e:35 f:36 ;;
members)
  # deep4 ran the first two together, then the other three; 6 epochs for those to save
  # time: their held-out excess loss ends as low as the first two's.
  fit_members training/deep4/members 1e-3 $D/{c,d,e,f}/dataset.npz <<LIST
n3805 $D/td3805.npz 71 12
n5375 training/td1/checkpoint.npz 72 12
nd2 $D/d2.npz 77 6
n42 training/td1/snapshots/games-004200000.npz 74 6
n52 training/td1/snapshots/games-005200000.npz 76 6
LIST
  ;;
esac
