#!/usr/bin/env python3
"""Reads the JSON lines of `render-anim bench …` and `scripts/bench-others.py` on standard input
and prints one Markdown row per library: `| library | LABEL… | min ms | median ms |`, from each
row's `sec_per_iter`. Used by scripts/bench.sh and scripts/bench-ab.sh; the labels are the
arguments (a size, a mode), joined by spaces."""
import collections
import json
import sys

times = collections.defaultdict(list)
for line in sys.stdin:
    row = json.loads(line)
    times[row["library"]].append(row["sec_per_iter"] * 1000)
label = " ".join(sys.argv[1:])
for library, t in times.items():
    t.sort()
    print("| %s | %s | %.3f | %.3f |" % (library, label, t[0], t[(len(t) - 1) // 2]))
