#!/usr/bin/env bash
# Builds the release packages into dist/ (`make dist`, which first installs
# the Debian packages this needs):
#   WorkOrderDesk-<version>-windows-amd64.exe and .zip  (fyne package + mingw-w64; the zip
#                                                        with workdesk-hub.exe beside the exe)
#   workdesk-<version>-linux-amd64.tar.xz               (fyne package, with workdesk-hub beside workdesk)
#   workdesk_<version>_amd64.deb                        (nfpm, from the tarball's files)
#   workdesk-hub_<version>_amd64.deb                    (the office hub's server package, packaging/hub/dist.sh)
# The version is FyneApp.toml's. About 14 minutes on 2 cores the first time,
# most of it the Windows cgo build; under 2 with Go's build cache warm.
#
#   packaging/dist.sh [all|linux|windows]
# builds everything (the default), only the tarball and the .debs, or only
# the Windows exe and zip (what `make windows-smoke` runs).
set -euo pipefail

what=${1:-all}
case $what in
  all | linux | windows) ;;
  *) echo "usage: $0 [all|linux|windows]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(sed -n 's/^Version *= *"\([^"]*\)".*/\1/p' FyneApp.toml)
[ -n "$version" ] || { echo "dist: no Version in FyneApp.toml" >&2; exit 1; }
app_id=$(sed -n 's/^ID *= *"\([^"]*\)".*/\1/p' FyneApp.toml)
out=$root/dist
bin=$root/.tools
mkdir -p "$out" "$bin"

step() { echo "== $(date -u +%H:%M:%S) $*"; }

step "tools (versions pinned in tools/go.mod)"
tools=(fyne.io/tools/cmd/fyne)
[ "$what" = windows ] || tools+=(github.com/goreleaser/nfpm/v2/cmd/nfpm)
(cd tools && go build -o "$bin/" "${tools[@]}")

# `fyne package` bumps Build in FyneApp.toml after every run and writes its
# generated files beside the sources, so it works on a copy: the checkout
# stays exactly as it was.
stage=$(mktemp -d "${TMPDIR:-/tmp}/workdesk-dist.XXXXXX")
trap 'rm -rf "$stage"' EXIT
git ls-files -z --cached --others --exclude-standard -- . ':!dist' ':!tools' \
  | tar --null --ignore-failed-read -T - -cf - | tar -C "$stage" -xf -
# The Build number the packages carry is the committed one.
build=$(sed -n 's/^Build *= *\([0-9]*\).*/\1/p' FyneApp.toml)
fyne_package() { (cd "$stage" && "$bin/fyne" package --release --app-build "${build:-1}" "$@"); }

# The office hub's own program for GOOS, static, into $2: `workdesk hub`
# runs it from beside workdesk, so the tarball and the zip carry it (the
# .deb leaves it to the workdesk-hub package, which it suggests).
hub_binary() {
  CGO_ENABLED=0 GOOS=$1 GOARCH=amd64 go build -tags migrated_fynedo -trimpath -ldflags "-s -w" -o "$2" ./cmd/workdesk-hub
}

linux_packages() {
  step "linux: fyne package"
  fyne_package --target linux
  tarball=$out/workdesk-$version-linux-amd64.tar.xz
  mv "$stage/Work Order Desk.tar.xz" "$tarball"

  step "linux: workdesk-hub beside workdesk in the tarball"
  fat=$stage/tarball
  mkdir -p "$fat"
  tar -C "$fat" -xJf "$tarball"
  bindir=$(dirname "$(find "$fat" -path '*/bin/workdesk' -type f)")
  hub_binary linux "$bindir/workdesk-hub"
  # fyne's Makefile installs the one binary it knows of: each of its lines
  # that installs or removes workdesk gets a twin for workdesk-hub. A
  # Makefile without such lines would leave workdesk-hub behind: stop.
  mk=$(find "$fat" -maxdepth 2 -name Makefile)
  installs='^[[:space:]]*\(install -D[^ ]*\|-rm\) .*/bin/[$](Exec)$'
  lines=$(grep -c "$installs" "$mk" || true)
  [ "$lines" = 4 ] || { echo "dist: fyne's Makefile no longer installs bin/\$(Exec) as dist.sh expects; update dist.sh" >&2; exit 1; }
  sed -i "\\#$installs#{p;s/[$](Exec)/workdesk-hub/g}" "$mk"
  [ "$(grep -c 'bin/workdesk-hub' "$mk")" = 4 ] || { echo "dist: adding workdesk-hub to fyne's Makefile failed" >&2; exit 1; }
  (cd "$fat" && tar -cJf "$tarball" -- *)

  step "deb: nfpm"
  tree=$stage/deb-tree
  mkdir -p "$tree"
  tar -C "$tree" -xJf "$tarball"
  usr=$tree/workdesk/usr/local
  [ -d "$usr" ] || usr=$tree/workdesk/usr
  # The package depends on the libraries the binary really links, in the
  # versions it needs, as Debian's own packages derive it.
  mkdir -p "$stage/shlibs/debian"
  printf 'Source: workdesk\n\nPackage: workdesk\nArchitecture: amd64\n' >"$stage/shlibs/debian/control"
  depends=$(cd "$stage/shlibs" && dpkg-shlibdeps -O "$usr/bin/workdesk" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  [ -n "$depends" ] || { echo "dist: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
  # GLFW loads the X11 and Wayland libraries at run time (dlopen), which
  # dpkg-shlibdeps cannot see: the ones it cannot open a window without are
  # added by the package that holds them here. Each must still be named in
  # the binary, so the list cannot outlive a GLFW that stops loading one.
  for so in libX11.so.6 libXcursor.so.1 libXrandr.so.2 libXinerama.so.1 libXi.so.6 \
            libEGL.so.1 libxkbcommon.so.0 libwayland-cursor.so.0 libwayland-egl.so.1; do
    grep -qaF "$so" "$usr/bin/workdesk" || { echo "dist: the binary no longer loads $so; update dist.sh" >&2; exit 1; }
    pkg=$(dpkg -S "*/x86_64-linux-gnu/$so" 2>/dev/null | cut -d: -f1 | sort -u | head -1)
    [ -n "$pkg" ] || { echo "dist: no installed package holds $so" >&2; exit 1; }
    case ", $depends," in *", $pkg "*|*", $pkg,"*) ;; *) depends="$depends, $pkg" ;; esac
  done
  echo "depends: $depends"
  deb=$out/workdesk_${version}_amd64.deb
  rm -f "$deb"
  WORKDESK_VERSION=$version WORKDESK_DEPENDS=$depends WORKDESK_TREE=$usr \
    "$bin/nfpm" package --config packaging/nfpm.yaml --packager deb --target "$deb"
}

hub_package() {
  step "hub: workdesk-hub .deb (nfpm)"
  packaging/hub/dist.sh
}

windows_package() {
  step "windows: fyne package (cgo with mingw-w64)"
  CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ GOARCH=amd64 fyne_package --target windows
  exe=$out/WorkOrderDesk-$version-windows-amd64.exe
  mv "$stage/Work Order Desk.exe" "$exe"
  hub_binary windows "$stage/workdesk-hub.exe"
  rm -f "${exe%.exe}.zip"
  (cd "$out" && zip -q -9 "$(basename "${exe%.exe}.zip")" "$(basename "$exe")")
  zip -q -9 -j "${exe%.exe}.zip" "$stage/workdesk-hub.exe"
}

case $what in
  all) linux_packages; hub_package; windows_package ;;
  linux) linux_packages; hub_package ;;
  windows) windows_package ;;
esac

step "done"
ls -l "$out"
