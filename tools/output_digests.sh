#!/usr/bin/env bash
# Digests of what cardgen writes, to hold a refactor to "behaviour stays":
#   tools/output_digests.sh OUT          # builds and plays into OUT, writes OUT/pdf.md5 and OUT/json/*.json
#   python3 tools/compare_digests.py BEFORE AFTER
# Every bundled deck, both examples and a few option sets are built with SOURCE_DATE_EPOCH set (PDF, PNG,
# pdf-cards and TTS files), and playtest, analyze --quick and ladder write their JSON reports.
set -u
out=$(realpath -m "$1")
cardgen=${CARDGEN:-.venv/bin/cardgen}
rm -rf "$out"; mkdir -p "$out/pdf" "$out/json"
export SOURCE_DATE_EPOCH=1700000000
build() { "$cardgen" build "$@" >/dev/null 2>&1 || echo "build failed: $*" >&2; }
build --out "$out/pdf/bundled"
build examples/argonauts/argonauts.yaml --out "$out/pdf/argo"
build examples/gops/gops.yaml --out "$out/pdf/gops"
build common-carrier --gray none --format png --format pdf-cards --format tts --out "$out/pdf/ccx"
build clusterfuck --players 6 --option standard_deck=true --out "$out/pdf/cf6"
for deck in common-carrier dotcombust clusterfuck examples/gops/gops.yaml; do
  name=$(basename "$deck" .yaml)
  "$cardgen" playtest "$deck" --games 200 --seed 3 --json > "$out/json/pt-$name-random.json" 2>/dev/null
  "$cardgen" playtest "$deck" --games 20 --seed 3 --policy greedy --json > "$out/json/pt-$name-greedy.json" 2>/dev/null
done
for game in common-carrier dotcombust clusterfuck; do
  "$cardgen" analyze "$game" --quick --json > "$out/json/an-$game.json" 2>/dev/null
done
"$cardgen" playtest common-carrier --games 4 --seed 2 --policy mcts:50 --vs greedy --json > "$out/json/pt-cc-mcts.json" 2>/dev/null
"$cardgen" ladder common-carrier --policies random,greedy --games 10 --json > "$out/json/ladder-cc.json" 2>/dev/null
# TTS decks name their image files by absolute path: digest them as if written to one place
find "$out/pdf" -name "*.json" -exec sed -i "s#$out/#OUT/#g" {} +
(cd "$out" && find pdf -type f | sort | xargs md5sum) > "$out/pdf.md5"
echo "$(wc -l < "$out/pdf.md5") files, $(ls "$out/json" | wc -l) reports in $out"
