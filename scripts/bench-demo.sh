#!/usr/bin/env bash
# The demo commands' time and memory, two builds side by side in one interleaved run (A B A B …),
# since absolute times on this 2-core VM wander by ±30 %: BENCHMARKS.md "The demo command".
# Usage: scripts/bench-demo.sh OLD_BINARY NEW_BINARY [ROUNDS]   (ROUNDS defaults to 5)
# Prints, per binary and command, the minimum and median of wall time, user+sys CPU, and peak RSS.
set -euo pipefail
old=$1 new=$2 rounds=${3:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commands=(
  "cats --tap 300,500 -o $work/out.gif"
  "cats --tap 300,500 -o $work/out.gif --threads 1"
  "cards -o $work/out.gif"
)
for ((round = 0; round < rounds; round++)); do
  for index in "${!commands[@]}"; do
    for binary in old new; do
      path=$old; [[ $binary == new ]] && path=$new
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$path" ${commands[$index]} --quiet
      read -r wall user sys rss <"$work/t"
      echo "$index $binary $wall $(awk -v u="$user" -v s="$sys" "BEGIN { print u + s }") $rss" >>"$work/results"
    done
  done
done
stats() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f / %.2f", v[1], v[int((NR + 1) / 2)] }'; }
echo "| command | build | wall s (min / median) | CPU s (min / median) | peak RSS MB (max) |"
echo "|---|---|---|---|---|"
for index in "${!commands[@]}"; do
  for binary in old new; do
    rows=$(awk -v i="$index" -v b="$binary" '$1 == i && $2 == b' "$work/results")
    wall=$(awk '{ print $3 }' <<<"$rows" | stats)
    cpu=$(awk '{ print $4 }' <<<"$rows" | stats)
    rss=$(awk '{ if ($5 > m) m = $5 } END { printf "%.0f", m / 1024 }' <<<"$rows")
    echo "| \`render-anim ${commands[$index]/$work\//}\` | $binary | $wall | $cpu | $rss |"
  done
done
