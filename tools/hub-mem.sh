#!/usr/bin/env bash
# The office hub's footprint, as shipped: the size of the workdesk-hub
# binary `make dist` packages (static, stripped), and its resident memory
# (VmRSS) idle and with 100 event streams open. The hub's own benchmark
# (hub/memory_bench_test.go, BenchmarkHubMemoryIdleAnd100Streams) runs that
# very binary on a throwaway PostgreSQL cluster (hub/pgtest: the system's
# postgresql package, as the hub's tests use it) against the sandbox as the
# customer's service, opens the streams, posts a notification each
# iteration and waits until all 100 have it.
#
#   tools/hub-mem.sh            (needs Go and the postgresql package)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=$(mktemp -d "${TMPDIR:-/tmp}/workdesk-hub-mem.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The build packaging/hub/dist.sh makes.
CGO_ENABLED=0 go build -tags migrated_fynedo -trimpath -ldflags "-s -w" -o "$dir/workdesk-hub" ./cmd/workdesk-hub
echo "workdesk-hub binary (static, stripped): $(stat -c %s "$dir/workdesk-hub") bytes"

WORKDESK_HUB_BIN=$dir/workdesk-hub PGTEST_REQUIRED=1 go test -tags migrated_fynedo -count 1 -run '^$' \
  -bench 'HubMemoryIdleAnd100Streams' -benchtime 3x ./hub/ | grep -E 'Benchmark|^ok|FAIL'
