# Work Order Desk. `make run` starts the app (demo mode when nothing is
# configured); `make test` is what CI runs.
GO      ?= go
TAGS    := migrated_fynedo
BIN     := workdesk
SHOT    ?= docs/screenshot.png

# Headers a Fyne 2.8 build links against (GLFW with X11 and Wayland), plus
# Xvfb and friends for the real-window smoke test and screenshots, and
# xdotool, which types on the real-window test's keyboard. The printed
# outputs are read back by real programs: poppler-utils (pdftotext,
# pdfinfo, pdftoppm) the PDFs, khal (a calendar program) imports the day
# sheet's .ics, and LibreOffice (headless, no GUI) opens an exported .xlsx.
APT_PKGS := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
            libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev \
            xvfb xauth imagemagick xdotool postgresql \
            poppler-utils khal libreoffice-calc-nogui

# What `make dist` needs on top: the Windows cross compiler, dpkg-shlibdeps
# (dpkg-dev) for the .deb's dependencies, the archivers, and libegl1 (the
# .deb depends on the package holding each library GLFW loads at run time).
DIST_APT_PKGS := gcc-mingw-w64-x86-64 dpkg-dev xz-utils zip git libegl1

# What `make windows-smoke` needs on top of `make dist`'s: 64-bit Wine.
WINDOWS_SMOKE_APT_PKGS := wine wine64

# The one version, FyneApp.toml's; `make dist` stamps it on every package.
VERSION := $(shell sed -n 's/^Version *= *"\([^"]*\)".*/\1/p' FyneApp.toml)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test vet fmt-check unit smoke realwindow office-shot notes-shots bench perf scale fuzz measure-startup measure-memory screenshot walkthrough dist dist-hub hub-unit-check windows-smoke deps-check print-version clean

deps:
	@if command -v dpkg-query >/dev/null 2>&1; then \
	  missing=$$(for p in $(APT_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	  if [ -n "$$missing" ]; then \
	    echo "Installing system packages: $$missing"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  fi; \
	else echo "Not a Debian/Ubuntu system: install a C compiler (and on Linux the X11/Wayland headers) yourself."; fi

build: deps
	$(GO) build -tags $(TAGS) -o $(BIN) .

run: build
	./$(BIN)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet: deps
	$(GO) vet -tags $(TAGS) ./...
	cd tools && $(GO) vet ./...
	# The Windows-only console code, which a Linux vet never sees.
	GOOS=windows CGO_ENABLED=0 $(GO) vet -tags $(TAGS),ci .

# PGTEST_REQUIRED: the hub's tests fail, not skip, when their throwaway
# PostgreSQL cluster cannot start (hub/pgtest).
# -race also turns on checkptr, which validates each unsafe.Pointer
# conversion. modernc.org/sqlite is SQLite's C transpiled to Go and makes
# one in nearly every line: checking them doubled the time of every test
# that touches a replica, and checks no code of ours. The race detector
# itself still instruments every package but one: go-text/typesetting,
# the text shaper Fyne measures every label with, is left uninstrumented.
# It is pure computation on what Fyne hands it (Fyne's own caches around
# it stay instrumented), so no race of ours can live in it, and it cost a
# third of every window test's time (TestEveryTabFitsItsWidth: 46 s, 32 s
# without). SQLite's transpiled C cannot be left out the same way: its
# atomics would then be invisible to the detector, which then reports
# races that SQLite's own locking orders (seen in storage's tests).
RACE := -race -gcflags=modernc.org/...=-d=checkptr=0 -gcflags=github.com/go-text/...=-race=false

# ui/'s tests (one Fyne test app per process, so never t.Parallel) run as
# three processes of one test binary beside the other packages' go test
# (tools/test-shards.sh): alone they took longer than everything else.
# tools/ui-test-seconds.txt is how long each took (go test -v), so that
# the shards get equal shares; refresh it when tests come or go.
UI_SHARDS ?= 3

# The tests collect garbage half as often as Go's default: under the race
# detector every object costs more to scan, and at GOGC=200 a window test
# used a tenth less CPU for some 150 MB more of memory.
unit: export GOGC = 200
unit: deps
	@log=$$(mktemp); GO=$(GO) SHARD_WEIGHTS=tools/ui-test-seconds.txt tools/test-shards.sh ./ui/ $(UI_SHARDS) $(RACE) -tags $(TAGS) >$$log 2>&1 & ui=$$!; \
	PGTEST_REQUIRED=1 $(GO) test $(RACE) -tags $(TAGS) -timeout 30m $$($(GO) list -tags $(TAGS) ./... | grep -v '/ui$$'); rest=$$?; \
	wait $$ui; uirc=$$?; cat $$log; rm -f $$log; [ $$rest = 0 ] && [ $$uirc = 0 ]
	# The race detector empties Fyne's pool of spare cells on purpose, so
	# counting the cells scrolling creates runs without it.
	$(GO) test -tags $(TAGS) -count 1 -run 'TestScrollingFiftyThousandRows' ./ui/list/
	# The search paths checked against each other (in-memory index, FTS5,
	# pages, the whole list) over every case: under the race detector,
	# which finds nothing on their one goroutine and makes SQLite some 25
	# times slower, they check a sample (storage's everyUnderRace).
	$(GO) test -tags $(TAGS) -count 1 -run 'TestSearchPagesAgreeWithFullList|TestInMemorySearch|TestSearchWhileWriting' ./storage/
	# The packaging inputs of `make dist` (tools/ is a module of its own).
	cd tools && $(GO) test ./...

# The real-window smoke: the binary renders its main window under Xvfb, writes
# a PNG of it and exits 0; the PNG must have the window's size and not be one
# flat colour.
smoke: build
	@rm -f /tmp/workdesk-smoke.png
	XDG_CONFIG_HOME="$$(mktemp -d)" FYNE_SCALE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
	  ./$(BIN) --screenshot /tmp/workdesk-smoke.png --window-size 1280x800 --data-dir "$$(mktemp -d)"
	@test -s /tmp/workdesk-smoke.png || { echo "smoke: no screenshot written"; exit 1; }
	@size=$$(identify -format '%w x %h' /tmp/workdesk-smoke.png); \
	colours=$$(identify -format '%k' /tmp/workdesk-smoke.png); \
	echo "smoke: screenshot $$size, $$colours colours"; \
	[ "$$size" = "1280 x 800" ] || { echo "smoke: expected 1280 x 800"; exit 1; }; \
	[ "$$colours" -gt 16 ] || { echo "smoke: the window is (nearly) one flat colour"; exit 1; }

# The real-window test: the app, built with a driver that taps and types
# through the widgets' own methods (realwindow.go), is used under Xvfb as a
# person does: every tab, every dialog opened and cancelled (file pickers
# included), every entry typed into, 1024x700 and 1920x1080. It fails if the
# process ends; a screenshot of each step is kept in REALWINDOW_SHOTS.
# Each test starts an X server of its own (Xvfb), so they run side by side:
# most of their time is spent waiting for the window, not computing.
REALWINDOW_SHOTS ?= $(CURDIR)/realwindow-shots

realwindow: deps
	$(GO) build -tags "$(TAGS) realwindow" -o $(BIN)-realwindow .
	WORKDESK_BIN=$(CURDIR)/$(BIN)-realwindow WORKDESK_SHOTS=$(REALWINDOW_SHOTS) \
	  $(GO) test -tags $(TAGS) -count 1 -v -parallel 8 -timeout 15m -run TestRealWindow ./realwindow/
	@echo "realwindow: screenshots of each step in $(REALWINDOW_SHOTS)"

# Regenerates docs/notes/office-two-windows.png: two office windows side by
# side on a 1920x1080 screen against an in-process hub on PostgreSQL, the
# right one showing the left one's accept (realwindow/office_test.go).
OFFICE_SHOT ?= docs/notes/office-two-windows.png

office-shot: deps
	$(GO) build -tags "$(TAGS) realwindow" -o $(BIN)-realwindow .
	WORKDESK_BIN=$(CURDIR)/$(BIN)-realwindow WORKDESK_SHOTS=$(REALWINDOW_SHOTS) WORKDESK_OFFICE_SHOT=$(CURDIR)/$(OFFICE_SHOT) \
	  $(GO) test -tags $(TAGS) -count 1 -v -timeout 15m -run TestRealWindowTwoOfficeWindows ./realwindow/

# Regenerates docs/notes/procedure-step-*.png and internal-note-*.png: a
# step completed and the internal note edited in the real window, at
# 1280x800 and 1024x700 (realwindow/procnotes_test.go; its X servers are
# its own).
notes-shots: deps
	$(GO) build -tags "$(TAGS) realwindow" -o $(BIN)-realwindow .
	WORKDESK_BIN=$(CURDIR)/$(BIN)-realwindow WORKDESK_SHOTS=$(REALWINDOW_SHOTS) WORKDESK_DOCS=$(CURDIR)/docs/notes \
	  $(GO) test -tags $(TAGS) -count 1 -v -timeout 5m -run TestRealWindowCompletingAStepAndTheNote ./realwindow/

test: deps fmt-check vet unit smoke realwindow
	@echo "make test: all checks passed"

bench: deps
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./...

# The headline figures (first sync / fetch only, first frame at 50,000, search
# as you type at 100,000 with and without a filter, the window's memory at
# 50,000, the hub's notification fan-out), each printed beside its target,
# and the first frame and search at 10,000, 100,000 and 200,000 (PERF_SIZES).
# Prints; never fails on a figure. PERF_ONLY=sync,search runs a subset.
perf: deps
	tools/perf.sh

# How the cost grows with the contractor's size: the real binary against
# `workdesk sandbox --work-orders N` through a first sync, the invoice
# fetch, idle, a restart and incremental syncs, each figure beside its
# target (tools/scale.sh). N may list sizes: N=10000,100000,200000. Needs
# a throwaway GNOME Keyring (installed here). Prints; never fails on a figure.
SCALE_APT_PKGS := gnome-keyring libsecret-tools dbus curl
N ?= 100000

scale: deps
	@$(MAKE) --no-print-directory deps APT_PKGS="$(SCALE_APT_PKGS)"
	N=$(N) tools/scale.sh

# Fuzzes each parser that reads what others send or type, FUZZTIME each
# (not part of `make test`; their seed corpora run there as ordinary tests).
# Prints each target's executions; a failure prints the input and stops.
FUZZTIME ?= 20s
FUZZ_TARGETS := api:FuzzVerify api:FuzzVerifySignedClaims api:FuzzParseEvent api:FuzzParseAmount \
                api:FuzzListAnswer api:FuzzReadLink \
                storage:FuzzFTSQuery storage:FuzzParseIDList \
                api/serve:FuzzRoute api/serve:FuzzIDs api/serve:FuzzTokenRequest api/serve:FuzzSearchParameters \
                pdftext:FuzzParseFace

fuzz: deps
	@for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t#*:}; out=$$(mktemp); \
	  if ! $(GO) test -tags $(TAGS) -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) ./$$pkg/ >$$out 2>&1; then \
	    cat $$out; rm -f $$out; echo "fuzz: $$fn failed"; exit 1; \
	  fi; \
	  printf '%-24s %s\n' "$$fn" "$$(grep -o 'elapsed: [0-9]*s, execs: [0-9]*' $$out | tail -1)"; rm -f $$out; \
	done

# Time from process start to the first frame over a 50,000-work-order
# replica (WORKDESK_BENCH_N=200000 for another size), under Xvfb.
measure-startup: build
	$(GO) build -tags $(TAGS) -o $(CURDIR)/floor ./probe/floor
	WORKDESK_BIN=$(CURDIR)/$(BIN) WORKDESK_FLOOR_BIN=$(CURDIR)/floor FYNE_SCALE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
	  $(GO) test -tags $(TAGS) -run '^$$' -bench StartupFirstFrame -benchtime 5x .

# The window's resident memory on 50,000 work orders (WORKDESK_BENCH_N),
# driven through the realwindow build's driver (searches typed into the
# search box).
measure-memory: deps
	$(GO) build -tags "$(TAGS) realwindow" -o $(BIN)-realwindow .
	WORKDESK_BIN=$(CURDIR)/$(BIN)-realwindow FYNE_SCALE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
	  $(GO) test -tags $(TAGS) -run '^$$' -bench WindowMemory -benchtime 5x .

# Regenerates the README's screenshot of the main window (demo mode), with
# fresh preferences so your own sort order and pane sizes do not show.
screenshot: build
	@mkdir -p $(dir $(SHOT))
	XDG_CONFIG_HOME="$$(mktemp -d)" FYNE_SCALE=1 xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" \
	  ./$(BIN) --screenshot $(SHOT) --window-size 1280x800 --data-dir "$$(mktemp -d)"

# Runs the user guide's walkthrough (docs/user-guide.md) as a test and
# writes a picture of each step.
walkthrough: deps
	WORKDESK_WALKTHROUGH_DIR=$(CURDIR)/docs/walkthrough $(GO) test -tags $(TAGS) -run Walkthrough -count 1 ./ui/

# Release packages for Windows, Linux (tarball) and Debian/Ubuntu (.deb)
# into dist/; slow (12-14 minutes on 2 cores the first time), so not part of `make test`.
# macOS is packaged by CI (.github/workflows/macos.yml).
dist: deps
	@$(MAKE) --no-print-directory deps APT_PKGS="$(DIST_APT_PKGS)"
	packaging/dist.sh

# Only the office hub's server package, dist/workdesk-hub_<version>_amd64.deb:
# the static workdesk-hub (no C compiler or Fyne needed), its systemd unit
# and its example settings (packaging/hub/). Under a minute.
dist-hub:
	packaging/hub/dist.sh

# The hub's systemd unit as systemd itself reads it: `systemd-analyze
# verify` (also run by tools/dist_test.go when the machine has systemd) and
# its security review (the exposure score, and what is left open and why:
# the network, the ssl-cert group, binding port 443).
hub-unit-check:
	@command -v systemd-analyze >/dev/null || { echo "hub-unit-check: no systemd-analyze here (apt-get install systemd)"; exit 1; }
	@dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	  CGO_ENABLED=0 $(GO) build -tags $(TAGS) -o "$$dir/workdesk-hub" ./cmd/workdesk-hub && \
	  sed "s|^ExecStart=/usr/bin/workdesk-hub|ExecStart=$$dir/workdesk-hub|" packaging/hub/workdesk-hub.service >"$$dir/workdesk-hub.service" && \
	  systemd-analyze verify "$$dir/workdesk-hub.service" && echo "systemd-analyze verify: no complaint" && \
	  systemd-analyze security --offline=true --no-pager "$$dir/workdesk-hub.service"

# The Windows exe, run for real under Wine in a throwaway prefix: its
# --version, doctor against `workdesk sandbox` (this Linux binary, on
# loopback), and the window's first frame under Xvfb, written to
# WINDOWS_SHOT (look at it). Fails if any step does. Slow (the exe is
# `make dist`'s Windows step: about 10 minutes of CPU on a cold build
# cache), so not part of `make test`. See packaging/windows-smoke/run.sh.
WINDOWS_SHOT ?= dist/windows-first-frame.png

windows-smoke: build
	@$(MAKE) --no-print-directory deps APT_PKGS="$(DIST_APT_PKGS) $(WINDOWS_SMOKE_APT_PKGS)"
	WINDOWS_SHOT=$(WINDOWS_SHOT) packaging/windows-smoke/run.sh

# The direct dependencies (and the tools tools/go.mod pins) that have a
# newer version than the one required, asking the module proxy about those
# only. Lists; never fails on what is behind.
deps-check:
	@for dir in . tools; do \
	  mods=$$(cd $$dir && { $(GO) list -m -f '{{if not (or .Main .Indirect)}}{{.Path}}{{end}}' all; \
	    $(GO) list -f '{{.Module.Path}}' tool 2>/dev/null; } | sort -u); \
	  list=$$(cd $$dir && $(GO) list -m -u -f '{{.Path}} {{.Version}}{{with .Update}} {{.Version}}{{end}}' $$mods) || exit 1; \
	  n=$$(echo "$$list" | wc -l); behind=$$(echo "$$list" | awk 'NF == 3'); \
	  echo "$$dir/go.mod: $$(echo "$$behind" | grep -c .) of $$n direct dependencies behind"; \
	  [ -z "$$behind" ] || echo "$$behind" | awk '{ printf "  %-40s %-12s -> %s\n", $$1, $$2, $$3 }'; \
	done

print-version:
	@echo $(VERSION)

clean:
	rm -f $(BIN) $(BIN)-realwindow floor
	rm -rf dist .tools
