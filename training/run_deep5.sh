#!/bin/bash
# deep5: a third round of deep3's recipe (training/deep3/README.md), over the deep4 net.
# 1. More 2-ply sibling datasets, valued by the search over the deep4 net (the shipped
#    weights of 2026-12-02 later, copied to training/deep3-data/d3.npz), seeds 37 and 38:
#      STEP=data training/run_deep5.sh
# 2. The five deep4 members refined further on all six sibling datasets (c to h), two at a
#    time, each warm-started from its deep4 weights, and w512: the refined nd2 widened
#    to 512 hidden units and refined again:
#      STEP=members training/run_deep5.sh
# 3. The distillation: N5b (the five refined members) and N6 (N5b and w512), each
#    distilled into 256 units on 3,000,000 sibling positions labelled by its 0-ply values
#    (d4 from the deep4 net, d6 from d4):
#      STEP=distill training/run_deep5.sh
#    Each fit needs about 12 GB: run one at a time.  See training/deep5/README.md.
# Local data, compressed and resumable.
cd "$(dirname "$0")/.."
. training/deep_round.sh
D=training/deep3-data
case "${STEP:-data}" in
data) sibling_data "$D/d3.npz" training/deep5 g:37 h:38 ;;
members)
  fit_members training/deep5/members 5e-4 $D/{c,d,e,f,g,h}/dataset.npz <<LIST
n3805 training/deep4/members/n3805/weights.npz 81 4
n5375 training/deep4/members/n5375/weights.npz 82 4
nd2 training/deep4/members/nd2/weights.npz 83 4
n42 training/deep4/members/n42/weights.npz 84 4
n52 training/deep4/members/n52/weights.npz 85 4
LIST
  fit_members training/deep5/members 5e-4 $D/{c,d,e,f,g,h}/dataset.npz <<LIST
w512 training/deep5/members/nd2/weights.npz 86 4 --hidden 512
LIST
  ;;
distill)
  M=training/deep5/members
  .venv/bin/python -m gammon train ensemble --out $D/N5b.npz $M/{n3805,n5375,nd2,n42,n52}/weights.npz
  distill $D/N5b.npz $D/d3.npz $M/d4 4 906 907 908
  .venv/bin/python -m gammon train ensemble --out $D/N6.npz $M/{n3805,n5375,nd2,n42,n52,w512}/weights.npz
  distill $D/N6.npz $M/d4/weights.npz $M/d6 6 909 910 911
  ;;
esac
