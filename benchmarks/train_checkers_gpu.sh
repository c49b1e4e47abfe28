#!/bin/sh
# Cross-validation twins of the checker reader on one GPU machine (issue 23): render the
# training frames on every core, then train one net per real fold held out, for each recipe,
# all at once on the GPU (each net is small: ten share one card).
#
#   benchmarks/train_checkers_gpu.sh OUT FRAMES RECIPE...
#
# FRAMES: comma-separated sets of 5,600 frames each (3,000 random positions, 1,000 tall stacks,
# 1,600 of the studded look): "base" (seeds 400000-403999, 420000-421599), "more" (430000-
# 433999, 450000-451599), "big" (460000-463999, 480000-481599, checkers as wide as real ones:
# train_checkers.py --big), "walls" (510000-513999, 530000-531599, every board a box whose walls
# stand above the field: train_checkers.py --walls); and of 1,000 random positions each
# (a tenth of base,more, as the CPU twins had): "shade" (560000-560999, one row in a wall's
# shade: --shade), "mono" (640000-640999, all 24 points one set's colour: --mono). The
# shipped net: base,more.
# RECIPE: NAME:EPOCHS:REAL_CUTS[:WIDTHS[:PASTED[:SHADE]]], e.g. b:10:20, s:8:60:16,24,32,48
# (the net's four convolutions' channels; default the shipped net's), p:8:60::40 (40 cuts more
# of each real photo with real checkers pasted on: train_checkers.py --pasted) or
# r:8:60::40:0.3 (a row of 30% of the real photos' moved cuts shaded: --real-shade). Writes
# OUT/NAME<fold>.onnx (the net trained on the renders and the real photos of the other four
# folds) and OUT/NAME<fold>.log.
# Score them here: python benchmarks/real_boards.py --checkers net --net 'OUT/NAME{fold}.onnx'
set -eu
out=$(realpath "$1") frames=$2
shift 2
cd "$(dirname "$0")"
mkdir -p "$out"
seeds() {  # the render step's arguments, a shard of 100 each: FIRST N [OPTION...]
    first=$1 n=$2
    shift 2
    for seed in $(seq "$first" 100 $((first + n - 100))); do echo "--first $seed $*"; done
}
shards() {  # a set of 5,600: random positions, tall stacks, the studded look: FIRST [OPTION]
    seeds "$1" 3000 ${2:-}
    seeds $(($1 + 3000)) 1000 --tall ${2:-}
    seeds $(($1 + 20000)) 1600 --looks studded ${2:-}
}
sets=$(echo "$frames" | tr , ' ')
for set in $sets; do
    case $set in
        base | more | big | walls | shade | mono) ;;
        *) echo "unknown frames: $set (choose from base, more, big, walls, shade, mono)" >&2
           exit 2 ;;
    esac
done
for set in $sets; do
    case $set in
        base) shards 400000 ;;
        more) shards 430000 ;;
        big) shards 460000 --big ;;
        walls) shards 510000 --walls ;;
        shade) seeds 560000 1000 --shade ;;  # as the CPU twins of issue 23 had
        mono) seeds 640000 1000 --mono ;;
    esac
done |
    xargs -P "$(nproc)" -I{} sh -c 'python3 train_checkers.py render --frames 100 {} >/dev/null'
echo "rendered: $(ls cache/checkers/train | wc -l) shards"
for recipe in "$@"; do
    IFS=: read -r name epochs cuts widths pasted shade <<EOF
$recipe
EOF
    for fold in 0 1 2 3 4; do
        others=$(echo 0 1 2 3 4 | tr ' ' '\n' | grep -v "$fold" | paste -sd,)
        OMP_NUM_THREADS=1 python3 train_checkers.py train --device cuda --epochs "$epochs" \
            --real-folds "$others" --real-cuts "$cuts" ${widths:+--widths "$widths"} \
            ${pasted:+--pasted "$pasted"} ${shade:+--real-shade "$shade"} \
            --out "$out/$name$fold.onnx" \
            >"$out/$name$fold.log" 2>&1 &
    done
done
wait
