#!/usr/bin/env bash
# test-shards.sh PKG SHARDS [go test flags...]: runs one package's tests as
# SHARDS processes side by side, from one test binary. Meant for ui/: Fyne's
# test app is one per process, so its tests cannot call t.Parallel, and
# under the race detector the package alone took longer than the rest of
# `make test` together; its tests mostly wait (on the sandbox, the sender,
# the window's queue), so processes side by side fill the cores they leave.
# Each test runs exactly once. The names are dealt slowest first, each to
# the shard with the least time so far, by the seconds SHARD_WEIGHTS (a
# file of "seconds name" lines, tools/ui-test-seconds.txt for ui/) gives
# them, 1 s for a test it does not name: dealt in list order, the shards
# ended up to a minute apart. A stale file costs balance, never a test.
# Prints each shard's output when it ends; fails if any shard fails.
set -uo pipefail
pkg=$1 shards=$2
shift 2
GO=${GO:-go}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

$GO test -c -o "$dir/pkg.test" "$@" "$pkg" || exit 1
src=$($GO list -f '{{.Dir}}' "$pkg") || exit 1
mapfile -t names < <(cd "$src" && "$dir/pkg.test" -test.list '.*' | grep -E '^(Test|Example)')
[ ${#names[@]} -gt 0 ] || { echo "test-shards: $pkg lists no tests" >&2; exit 1; }

# "shard name" lines: slowest first, each to the least loaded shard.
weights=${SHARD_WEIGHTS:-/dev/null}
mapfile -t dealt < <(printf '%s\n' "${names[@]}" | awk -v shards="$shards" '
  FILENAME != "-" { secs[$2] = $1; next }
  { n++; name[n] = $0; w[n] = ($0 in secs) ? secs[$0] : 1 }
  END {
    for (i = 1; i <= n; i++) order[i] = i
    for (i = 2; i <= n; i++) {            # insertion sort, slowest first
      j = i; while (j > 1 && w[order[j-1]] < w[order[j]]) { t = order[j]; order[j] = order[j-1]; order[j-1] = t; j-- }
    }
    for (i = 1; i <= n; i++) {
      best = 0
      for (s = 1; s < shards; s++) if (load[s] < load[best]) best = s
      load[best] += w[order[i]]
      print best, name[order[i]]
    }
  }' "$weights" -)

pids=()
for ((s = 0; s < shards; s++)); do
  run=()
  for line in "${dealt[@]}"; do [ "${line%% *}" = "$s" ] && run+=("${line#* }"); done
  [ ${#run[@]} -gt 0 ] || continue
  pattern="^($(IFS='|'; echo "${run[*]}"))\$"
  (start=$SECONDS
   cd "$src" && "$dir/pkg.test" -test.run "$pattern" -test.timeout "${SHARD_TIMEOUT:-30m}" -test.count 1 >"$dir/shard$s.log" 2>&1
   echo $? >"$dir/shard$s.rc"
   echo "${#run[@]} tests in $((SECONDS - start)) s" >"$dir/shard$s.took") &
  pids+=($!)
done
wait "${pids[@]}"

failed=0
for ((s = 0; s < shards; s++)); do
  [ -f "$dir/shard$s.rc" ] || continue
  rc=$(cat "$dir/shard$s.rc")
  if [ "$rc" != 0 ]; then
    failed=1
    echo "=== $pkg shard $((s + 1))/$shards FAILED (exit $rc, $(cat "$dir/shard$s.took")):"
    cat "$dir/shard$s.log"
  else
    echo "ok   $pkg shard $((s + 1))/$shards: $(cat "$dir/shard$s.took")"
  fi
done
exit $failed
