#!/usr/bin/env python3
"""Where two request paths' instructions differ, by function and by crate (issue #29).

    sdk-benches/scripts/callgrind-diff.py N A.out B.out [TOP]

A.out and B.out are profiles of `callgrind-per-call.sh` (each N calls, e.g.
target/callgrind/sdk-get.out and target/callgrind/raw-hyper-get.out). Prints the instructions
per call of each function's own code (exclusive, from `callgrind_annotate --inclusive=no`) in A
and B and their difference, the TOP (default 40) largest differences first, then the same
summed by crate (the first `name::` of the symbol: `<T as Trait>` counts for T's crate, and
`drop_in_place<T>` too).
"""

import re
import subprocess
import sys
from collections import defaultdict

LINE = re.compile(r"^\s*([\d,]+)\s+\([^)]*\)\s+(?:\S+?:)?(.+?)(?:\s+\[[^\]]*\])?\s*$")
CRATE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)::")


def exclusive(path):
    """Function -> instructions of its own code in the profile at `path`."""
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    costs = defaultdict(int)
    started = False
    for line in out.splitlines():
        if "file:function" in line:
            started = True
            continue
        if not started:
            continue
        m = LINE.match(line)
        if m:
            costs[m.group(2)] += int(m.group(1).replace(",", ""))
    return costs


def crate(function):
    """The crate a symbol's cost counts for; a `drop_in_place<T>` counts for T's."""
    names = CRATE.findall(function)
    if function.startswith("core::ptr::drop_in_place<"):
        names = names[2:] or names
    return names[0] if names else function.split("(")[0][:40]


def table(title, a, b, n, top):
    rows = sorted(set(a) | set(b), key=lambda f: -abs(a.get(f, 0) - b.get(f, 0)))
    print(f"\n{title}\n")
    print("| A − B / call | A / call | B / call | name |")
    print("| ---: | ---: | ---: | --- |")
    for f in rows[:top]:
        x, y = a.get(f, 0) / n, b.get(f, 0) / n
        print(f"| {x - y:+.0f} | {x:.0f} | {y:.0f} | `{f[:140]}` |")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    n = int(sys.argv[1])
    a, b = exclusive(sys.argv[2]), exclusive(sys.argv[3])
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    print(f"A: {sys.argv[2]} ({sum(a.values()) / n:.0f} / call), B: {sys.argv[3]} ({sum(b.values()) / n:.0f} / call)")
    by_crate = lambda costs: {  # noqa: E731
        c: sum(v for f, v in costs.items() if crate(f) == c) for c in {crate(f) for f in costs}
    }
    table("By crate (exclusive instructions):", by_crate(a), by_crate(b), n, 25)
    table("By function (exclusive instructions):", a, b, n, top)


if __name__ == "__main__":
    main()
