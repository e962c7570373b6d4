#!/usr/bin/env bash
# `make windows-smoke`: the Windows exe of `make dist`, run under Wine in a
# throwaway prefix. It fails unless each step succeeds:
#   1. --version prints the version of FyneApp.toml;
#   2. doctor, against `workdesk sandbox` (the Linux binary, on loopback),
#      passes every check;
#   3. the window (demo mode) draws its first frame under Xvfb, written as a
#      PNG of the window's size with more than a flat colour in it.
# The prefix gets a stand-in bcryptprimitives.dll (bcryptprimitives.c, which
# Debian's Wine 8 lacks and Go's runtime needs); it is built into the
# prefix only and never shipped.
#
#   WINDOWS_EXE=FILE   run this exe instead of building one (dist.sh windows)
#   WINDOWS_SHOT=FILE  where the first frame goes (dist/windows-first-frame.png)
# Needs ./workdesk (make build), Wine, Xvfb, mingw-w64 and ImageMagick.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
here=packaging/windows-smoke
version=$(sed -n 's/^Version *= *"\([^"]*\)".*/\1/p' FyneApp.toml)
shot=$(realpath -m "${WINDOWS_SHOT:-dist/windows-first-frame.png}")
started=${WINDOWS_SMOKE_STARTED:-$(date +%s)}

step() { echo "== $(date -u +%H:%M:%S) (+$(($(date +%s) - started)) s) $*"; }
fail() { echo "windows-smoke: $*" >&2; exit 1; }

[ -x ./workdesk ] || fail "no ./workdesk to run the sandbox (make build)"

# Everything Wine starts shares one X server: the prefix's desktop process
# (explorer.exe) keeps the display of whoever started it first.
if [ -z "${WINDOWS_SMOKE_IN_XVFB:-}" ]; then
  exe=${WINDOWS_EXE:-}
  if [ -z "$exe" ]; then
    step "build: packaging/dist.sh windows"
    packaging/dist.sh windows
    exe=dist/WorkOrderDesk-$version-windows-amd64.exe
  fi
  [ -f "$exe" ] || fail "no exe at $exe"
  WINDOWS_SMOKE_IN_XVFB=1 WINDOWS_EXE=$(realpath "$exe") WINDOWS_SHOT=$shot WINDOWS_SMOKE_STARTED=$started \
    exec xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$0"
fi
exe=$WINDOWS_EXE

work=$(mktemp -d "${TMPDIR:-/tmp}/workdesk-windows-smoke.XXXXXX")
export WINEPREFIX=$work/prefix WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko: nothing here needs them, and their installers ask.
export WINEDLLOVERRIDES="mscoree,mshtml="
sandbox_pid=
cleanup() {
  [ -z "$sandbox_pid" ] || kill "$sandbox_pid" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  wineserver -w 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

step "wine prefix in $WINEPREFIX ($(wine --version 2>/dev/null))"
wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; fail "wineboot failed"; }
wineserver -w
sys32=$WINEPREFIX/drive_c/windows/system32
[ -d "$sys32" ] || fail "the prefix has no system32"
# Go loads it from system32 only (not beside the exe, nor by WINEDLLOVERRIDES).
x86_64-w64-mingw32-gcc -shared -O2 -Wall -o "$sys32/bcryptprimitives.dll" "$here/bcryptprimitives.c" -ladvapi32

# Windows paths for Linux files, through Wine's Z: drive.
winpath() { winepath -w "$1" 2>/dev/null; }

step "exe --version"
got=$(wine "$exe" --version 2>"$work/version.err" | tr -d '\r') || { cat "$work/version.err"; fail "--version failed"; }
echo "$got"
[ "$got" = "workdesk $version" ] || { cat "$work/version.err"; fail "--version printed \"$got\", want \"workdesk $version\""; }

step "doctor against workdesk sandbox"
mkdir -p "$work/sandbox"
./workdesk sandbox --addr 127.0.0.1:0 --customer-every 0 --config-out "$work/sandbox/connection.json" \
  >"$work/sandbox.out" 2>"$work/sandbox.err" &
sandbox_pid=$!
for _ in $(seq 100); do
  [ -s "$work/sandbox/connection.json" ] && break
  kill -0 "$sandbox_pid" 2>/dev/null || { cat "$work/sandbox.err"; fail "the sandbox stopped"; }
  sleep 0.1
done
[ -s "$work/sandbox/connection.json" ] || fail "the sandbox wrote no connection settings in 10 s"
field() { sed -n "s/^ *\"$1\": *\"\\([^\"]*\\)\".*/\\1/p" "$work/sandbox/connection.json"; }
echo "sandbox on $(field base_url)"
status=0
WORKDESK_BASE_URL=$(field base_url) WORKDESK_TOKEN_URL=$(field token_url) WORKDESK_CLIENT_ID=$(field client_id) \
  WORKDESK_CLIENT_SECRET=$(field client_secret) \
  wine "$exe" doctor --cert "$(winpath "$(field cert_path)")" >"$work/doctor.out" 2>&1 || status=$?
tr -d '\r' <"$work/doctor.out"
kill "$sandbox_pid"
wait "$sandbox_pid" 2>/dev/null || true
sandbox_pid=
[ "$status" = 0 ] || fail "doctor exited $status"
grep -q 'All checks passed' "$work/doctor.out" || fail "doctor did not say all checks passed"

step "first frame: exe --screenshot (demo mode)"
mkdir -p "$(dirname "$shot")" "$work/data"
rm -f "$shot"
# Fyne captures by reading the GL front buffer, which Mesa's llvmpipe leaves
# black; the exe sets GALLIUM_DRIVER for itself, but Mesa here is Linux's
# and reads Wine's own environment.
status=0
GALLIUM_DRIVER=softpipe FYNE_SCALE=1 timeout 300 \
  wine "$exe" --screenshot "$(winpath "$shot")" --window-size 1280x800 --data-dir "$(winpath "$work/data")" \
  >"$work/gui.out" 2>&1 || status=$?
[ "$status" = 0 ] || { tail -20 "$work/gui.out"; fail "the window exited $status"; }
[ -s "$shot" ] || { tail -20 "$work/gui.out"; fail "no screenshot written"; }
size=$(identify -format '%w x %h' "$shot")
colours=$(identify -format '%k' "$shot")
echo "screenshot $shot: $size, $colours colours"
[ "$size" = "1280 x 800" ] || fail "expected 1280 x 800"
[ "$colours" -gt 16 ] || fail "the window is (nearly) one flat colour"

step "windows-smoke passed"
