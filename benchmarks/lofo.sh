#!/bin/sh
# Leave-one-family-out: for each drawing family, a cell net trained without it, in short runs of the
# committed net's recipe (the other pure families, 80 sheets each, glyph 160, 4 epochs, one thread,
# net temperatures fitted on eval-split sheets of the trained families, shape and faint-ink
# augmentation, hero and hit-star patches taken 4 times with the prior shift that undoes it, the
# look-alike pooling temperature fitted by models.fit_decode on the trained families only;
# "without-mixed" trains on all five pure families). The default mixed split is not used: it draws
# from every family. The coin and edge nets stay as committed. Then read each on its held-out family
# (and on the sketch family, which no net trains on: its 23 designs judge a recipe more steadily than
# graphite's six, README "Pencil icons of many new designs"):
#   sh benchmarks/lofo.sh OUT && PYTHONPATH=$PWD python benchmarks/eval_families.py --lofo OUT
# About 12 minutes of one core per family on an idle machine the first time (rendering its data,
# cached), then 3-4 minutes. Four epochs since 2026-12-06: two left the nets short of trained (five
# of the six left-out families read 0.4-2.5 points lower, README).
# ONLY=graphite,glyph sh benchmarks/lofo.sh OUT runs a subset. MORE=doodle,grammar adds families that
# are never left out, FLAGS adds training options; the grammar recipe's table (README, "Designs
# composed from parts"): MORE=doodle,grammar FLAGS="--grammar-factor 8 --cell-pool avgmax" (the pooling
# temperature is still fitted on the left-in pure families only).
set -eu
out=${1:?usage: sh benchmarks/lofo.sh OUT}
all="graphite glyph color color_icon marker mixed"
for held in $(echo "${ONLY:-$all}" | tr ',' ' '); do
    d="$out/without-$held"
    mkdir -p "$d"
    cp models/manifest.json models/cell.onnx models/coin.onnx models/edge.onnx "$d/"
    fams=$(for f in $all; do if [ "$f" != "$held" ] && [ "$f" != mixed ]; then printf '%s,' "$f"; fi; done)
    # shellcheck disable=SC2086  # FLAGS is a list of options
    OMP_NUM_THREADS=1 python -m models.train --out "$d" --only cell --families "${fams%,}${MORE:+,$MORE}" \
        --family-sheets 80 --glyph-factor 2 --epochs 4 --threads 1 \
        --calibrate-on eval --calibration-sheets 40 --eval-sheets 10 --shape-aug --fade-aug --rare-repeat 4 \
        ${FLAGS:-}
    OMP_NUM_THREADS=1 python -m models.fit_decode "$d" --sheets 10 --families "${fams%,}" --write
done
