#!/usr/bin/env bash
# Instructions per call of each request path of `bench-report runtime`, counted by callgrind
# (issue #23; robust to the machine's load, unlike wall-clock time). See BENCHMARKS.md.
#
#   sdk-benches/scripts/callgrind-per-call.sh            # all paths, 2,000 calls each
#   N=500 PATHS="nn-sdk-get nn-raw-get" sdk-benches/scripts/callgrind-per-call.sh
#   CACHE=1 PATHS="sdk-get raw-get" sdk-benches/scripts/callgrind-per-call.sh   # + L1 misses
#
# Each run counts only `sdk_benches::fixed_calls::measured` (N calls after 200 warm-up calls;
# the in-process loopback server's work is included, the same for every path). The profiles
# stay in target/callgrind/PATH.out (or $OUT/PATH.out) for `callgrind_annotate --inclusive=yes`;
# BIN=path runs another build of `bench-report` (e.g. a copy of an earlier commit's) unbuilt.
#
# With CACHE=1, callgrind also simulates the L1 caches (`--cache-sim=yes`: 32 KiB 8-way I1
# and D1, 64-byte lines; user space only) and the table adds the L1 lines missed per call
# (I1 read misses, D1 read and write misses, and their sum), what the wall clock of this
# benchmark tracks on the project's VMs (BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
N=${N:-2000}
PATHS=${PATHS:-"sdk-get raw-get raw-hyper-get sdk-post raw-post raw-hyper-post nn-sdk-get nn-raw-get nn-sdk-post nn-raw-post sdk-get-no-timeouts sdk-post-no-timeouts sdk-get-reqwest sdk-post-reqwest"}
CACHE=${CACHE:-0}
BIN=${BIN:-target/release/bench-report}
out=${OUT:-target/callgrind}
mkdir -p "$out"
[ "$BIN" = target/release/bench-report ] && cargo build --release --quiet -p sdk-benches --bin bench-report
cache_args=()
if [ "$CACHE" = 1 ]; then
  cache_args=(--cache-sim=yes)
  echo "| path | instructions / call | I1 misses | D1 read misses | D1 write misses | L1 lines missed |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
else
  echo "| path | instructions / call |"
  echo "| --- | ---: |"
fi
for p in $PATHS; do
  valgrind --tool=callgrind "${cache_args[@]}" --collect-atstart=no \
    --toggle-collect='*fixed_calls*measured*' \
    --callgrind-out-file="$out/$p.out" "$BIN" calls "$p" "$N" \
    >/dev/null 2>"$out/$p.log"
  # The `events:` line names the columns of the `summary:`/`totals:` line.
  awk -v n="$N" -v path="$p" -v cache="$CACHE" '
    /^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
    /^(summary|totals):/ && !done {
      done = 1
      ir = $(col["Ir"])
      if (cache == 1) {
        i1 = $(col["I1mr"]); dr = $(col["D1mr"]); dw = $(col["D1mw"])
        printf "| %s | %d | %d | %d | %d | %d |\n", path, ir / n, i1 / n, dr / n, dw / n, (i1 + dr + dw) / n
      } else {
        printf "| %s | %d |\n", path, ir / n
      }
    }' "$out/$p.out"
done
