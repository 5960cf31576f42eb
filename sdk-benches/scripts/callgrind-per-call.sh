#!/usr/bin/env bash
# Instructions per call of each request path of `bench-report runtime`, counted by callgrind
# (issue #23; robust to the machine's load, unlike wall-clock time). See BENCHMARKS.md.
#
#   sdk-benches/scripts/callgrind-per-call.sh            # all paths, 2,000 calls each
#   N=500 PATHS="nn-sdk-get nn-raw-get" sdk-benches/scripts/callgrind-per-call.sh
#
# Each run counts only `sdk_benches::fixed_calls::measured` (N calls after 200 warm-up calls;
# the in-process loopback server's work is included, the same for every path). The profiles
# stay in target/callgrind/PATH.out for `callgrind_annotate --inclusive=yes`.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
N=${N:-2000}
PATHS=${PATHS:-"sdk-get raw-get sdk-post raw-post nn-sdk-get nn-raw-get nn-sdk-post nn-raw-post sdk-get-no-timeouts sdk-post-no-timeouts"}
out=target/callgrind
mkdir -p "$out"
cargo build --release --quiet -p sdk-benches --bin bench-report
echo "| path | instructions / call |"
echo "| --- | ---: |"
for p in $PATHS; do
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*fixed_calls*measured*' \
    --callgrind-out-file="$out/$p.out" target/release/bench-report calls "$p" "$N" \
    >/dev/null 2>"$out/$p.log"
  total=$(awk '/^(summary|totals):/ {print $2; exit}' "$out/$p.out")
  echo "| $p | $((total / N)) |"
done
