#!/usr/bin/env bash
# Builds dist/workdesk-hub_<version>_amd64.deb, the office hub's server
# package: the static workdesk-hub (CGO_ENABLED=0, no Fyne, no C library),
# its systemd unit and its example settings (packaging/hub/nfpm.yaml).
# `make dist` runs it (packaging/dist.sh); `make dist-hub` runs it alone.
# The version is FyneApp.toml's. Under a minute with Go's build cache warm.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
version=$(sed -n 's/^Version *= *"\([^"]*\)".*/\1/p' FyneApp.toml)
[ -n "$version" ] || { echo "dist-hub: no Version in FyneApp.toml" >&2; exit 1; }
out=$root/dist
bin=$root/.tools
mkdir -p "$out" "$bin"
stage=$(mktemp -d "${TMPDIR:-/tmp}/workdesk-hub-dist.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# nfpm, pinned in tools/go.mod as for the desktop's .deb.
(cd tools && go build -o "$bin/" github.com/goreleaser/nfpm/v2/cmd/nfpm)

# Stripped of its symbol tables (-s -w): a panic still prints its stack.
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -tags migrated_fynedo -trimpath -ldflags "-s -w" \
  -o "$stage/workdesk-hub" ./cmd/workdesk-hub
said=$("$stage/workdesk-hub" --version)
[ "$said" = "workdesk-hub $version" ] || {
  echo "dist-hub: the binary says \"$said\", FyneApp.toml \"$version\": run go generate ./cmd/workdesk-hub" >&2; exit 1; }

deb=$out/workdesk-hub_${version}_amd64.deb
rm -f "$deb"
WORKDESK_VERSION=$version WORKDESK_HUB_BIN=$stage/workdesk-hub WORKDESK_HUB_DIR=$root/packaging/hub \
  "$bin/nfpm" package --config packaging/hub/nfpm.yaml --packager deb --target "$deb"
echo "workdesk-hub binary: $(stat -c %s "$stage/workdesk-hub") bytes; package: $(stat -c %s "$deb") bytes"
