#!/usr/bin/env bash
# `make scale N=100000` (or N=10000,100000,200000): how the app's cost grows
# with the size of the contractor. For each N it runs `workdesk sandbox
# --work-orders N` and the real binary against it as a person's first day
# does (an empty replica, the live settings, the secret in a throwaway
# GNOME Keyring, under Xvfb): the first sync, the invoice fetch after it,
# idle, a restart with 100 changes waiting and a few incremental syncs of
# 100 changes each, then `--screenshot` (live and `--replica`) and the
# first frame over the replica. Each figure is printed beside its target.
# A measurement, not a test: it prints and never fails on a figure; every
# wait has a deadline (SCALE_IDLE_LIMIT seconds for the first day, 600 by
# default), so a run at 200,000 ends within about a quarter of an hour.
#
# SCALE_FIRST_DAY_ONLY=1 stops after the first day (the first sync, the
# invoice fetch and idle): to compare two binaries (SCALE_BIN) side by side.
#
# It reads the app's own log lines ("sync finished", "fetched the invoices
# of finished work") and /proc: resident memory (VmRSS, VmHWM for the
# peak), CPU seconds (utime + stime), and the size of the replica's WAL.
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
TAGS=${TAGS:-migrated_fynedo}
SIZES=${N:-${1:-100000}}
IDLE_LIMIT=${SCALE_IDLE_LIMIT:-600}
CHANGES=100
export FYNE_SCALE=1

# The app needs a display, a session bus and an unlocked keyring: the
# script runs itself again inside throwaway ones.
if [ -z "${SCALE_INSIDE:-}" ]; then
  for tool in xvfb-run dbus-run-session gnome-keyring-daemon secret-tool curl; do
    command -v $tool >/dev/null || { echo "scale: $tool is missing (apt-get install xvfb dbus gnome-keyring libsecret-tools curl)"; exit 1; }
  done
  # SCALE_BIN measures a binary built beforehand (an earlier commit's).
  [ -n "${SCALE_BIN:-}" ] || $GO build -tags "$TAGS" -o workdesk . || exit 1
  home=$(mktemp -d)
  trap 'rm -rf "$home"' EXIT
  HOME=$home XDG_DATA_HOME=$home/data XDG_RUNTIME_DIR=$home SCALE_INSIDE=1 \
    dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1000x24 -nolisten tcp" "$0" "$@" 2> >(grep -v 'Failed to set fd limit' >&2)
  exit $?
fi

printf 'scale-keyring' | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
BIN=${SCALE_BIN:-$PWD/workdesk}
TICK=$(getconf CLK_TCK)
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  [ -n "${SCALE_KEEP:-}" ] && echo "scale: kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
# cpu_ticks PID: user + system CPU of the process so far, in clock ticks.
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'; }
# status_kb PID FIELD: a /proc/PID/status figure in kB.
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
size_mb() { local s; s=$(stat -c %s "$1" 2>/dev/null || echo 0); awk -v b="$s" 'BEGIN { printf "%.0f", b / 1048576 }'; }
# seconds DURATION: Go's time.Duration text (1.5s, 847ms, 1m2s) in ms.
ms_of() {
  awk -v d="$1" 'BEGIN {
    total = 0
    while (match(d, /^[0-9.]+(h|ms|µs|us|ns|m|s)/)) {
      tok = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
      match(tok, /[a-zµ]+$/); unit = substr(tok, RSTART); v = substr(tok, 1, RSTART - 1) + 0
      f = (unit == "h") ? 3600000 : (unit == "m") ? 60000 : (unit == "s") ? 1000 : (unit == "ms") ? 1 : (unit == "ns") ? 1e-6 : 1e-3
      total += v * f
    }
    printf "%.0f", total
  }'
}
# after LOG PATTERN [NTH]: the NTH line (default 1) of LOG matching PATTERN.
after() { grep -a -- "$2" "$1" 2>/dev/null | sed -n "${3:-1}p"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }

# Sampling while a phase runs: peak WAL, peak cores over 2 s windows.
WAL_PEAK=0
CORES_PEAK=0
sample_until() { # PID DB DEADLINE_S CONDITION...: samples until CONDITION holds (or the deadline, or the app ends)
  local pid=$1 db=$2 limit=$3; shift 3
  local start; start=$(now_ms)
  local last_t last_c t c w
  last_t=$start; last_c=$(cpu_ticks "$pid")
  while ! "$@"; do
    [ -d "/proc/$pid" ] || return 2
    (( $(now_ms) - start > limit * 1000 )) && return 1
    sleep 0.5
    w=$(stat -c %s "$db-wal" 2>/dev/null || echo 0)
    (( w > WAL_PEAK )) && WAL_PEAK=$w
    t=$(now_ms); c=$(cpu_ticks "$pid")
    if (( t - last_t >= 2000 )) && [ -n "$c" ]; then
      CORES_PEAK=$(awk -v p="$CORES_PEAK" -v c="$c" -v lc="$last_c" -v t="$t" -v lt="$last_t" -v k="$TICK" \
        'BEGIN { x = (c - lc) / k / ((t - lt) / 1000); printf "%.2f", (x > p) ? x : p }')
      last_t=$t; last_c=$c
    fi
  done
}
logged() { grep -aq -- "$2" "$1"; }
logged_n() { [ "$(grep -ac -- "$2" "$1")" -ge "$3" ]; }
# quiet PID: the process used under a tenth of a core over the last second.
quiet() {
  local a b; a=$(cpu_ticks "$1"); sleep 1; b=$(cpu_ticks "$1")
  [ -n "$a" ] && [ -n "$b" ] && (( (b - a) * 10 < TICK ))
}
fetched_and_quiet() { logged "$1" "fetched the invoices of finished work" && quiet "$2"; }

start_app() { # LOG ARGS...: the app in the background; sets APP
  local log=$1; shift
  "$BIN" "$@" 2>"$log" >/dev/null &
  APP=$!
  pids+=("$APP")
}
# stop_app PID: asks the app to quit (SIGTERM, as a log-out does) and
# kills it if it has not within 20 s.
stop_app() {
  kill "$1" 2>/dev/null
  for _ in $(seq 40); do [ -d "/proc/$1" ] || break; sleep 0.5; done
  kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null
}
dispatch() { # N: the customer dispatches N new work orders
  for _ in $(seq "$1"); do
    curl -fsS -X POST -d '{}' "${SB_URL%/}/_sandbox/dispatch" >/dev/null || return 1
  done
}

declare -A R # R[N,key] = value

measure() {
  local n=$1 dir=$work/$1
  mkdir -p "$dir/config/fyne/com.workorderdesk.workdesk" "$dir/data"
  echo "scale: N=$n: starting the sandbox" >&2
  "$BIN" sandbox --addr 127.0.0.1:0 --config-out "$dir/sandbox.json" --customer-every 0 --work-orders "$n" \
    >/dev/null 2>"$dir/sandbox.log" &
  local sb=$!; pids+=("$sb")
  local deadline=$(( $(date +%s) + 300 ))
  until [ -s "$dir/sandbox.json" ] && grep -q client_secret "$dir/sandbox.json"; do
    [ -d /proc/$sb ] && (( $(date +%s) < deadline )) || { echo "scale: the sandbox did not start" >&2; tail -5 "$dir/sandbox.log" >&2; return 1; }
    sleep 0.5
  done
  local cfg; cfg=$(cat "$dir/sandbox.json")
  js() { sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p" <<<"$cfg" | head -1; }
  SB_URL=$(js base_url)
  local id; id=$(js client_id)
  printf '%s' "$(js client_secret)" | secret-tool store --label="Work Order Desk" service com.workorderdesk.workdesk username "$id"
  prefs=$dir/config/fyne/com.workorderdesk.workdesk/preferences.json
  printf '{"live.base_url":"%s","live.token_url":"%s","live.client_id":"%s"}' "$SB_URL" "$(js token_url)" "$id" >"$prefs"
  export XDG_CONFIG_HOME=$dir/config

  # The first day: an empty replica, the first sync, the invoices, idle.
  echo "scale: N=$n: the first sync and the invoice fetch (at most $IDLE_LIMIT s)" >&2
  WAL_PEAK=0; CORES_PEAK=0
  local log=$dir/first.log t0 tsync tidle c_sync c_idle
  t0=$(now_ms)
  start_app "$log" --data-dir "$dir/data" --window-size 1280x800
  local app=$APP db
  sample_until "$app" "$dir/data/x" "$IDLE_LIMIT" logged "$log" "sync finished"
  db=$(ls "$dir"/data/*.db 2>/dev/null | head -1)
  tsync=$(now_ms); c_sync=$(cpu_ticks "$app")
  local line; line=$(after "$log" "sync finished")
  R[$n,sync]=$(ms_of "$(field "$line" took)")
  R[$n,synccpu]=$(awk -v c="$c_sync" -v k="$TICK" 'BEGIN { printf "%.1f", c / k }')
  WAL_PEAK=0; CORES_PEAK=0 # the fetch's own, from here
  local left=$(( IDLE_LIMIT - (tsync - t0) / 1000 ))
  if sample_until "$app" "$db" "$(( left > 10 ? left : 10 ))" fetched_and_quiet "$log" "$app"; then
    tidle=$(now_ms); c_idle=$(cpu_ticks "$app")
    R[$n,idle]=$(( (tidle - tsync) / 1000 ))
  else
    tidle=$(now_ms); c_idle=$(cpu_ticks "$app")
    R[$n,idle]="> $(( (tidle - tsync) / 1000 )) (stopped)"
  fi
  line=$(after "$log" "fetching the invoices of finished work")
  local invoices; invoices=$(field "$line" count)
  R[$n,invoices]=${invoices:-0}
  R[$n,fetchcpu]=$(awk -v a="$c_sync" -v b="$c_idle" -v k="$TICK" 'BEGIN { printf "%.1f", (b - a) / k }')
  R[$n,perinv]=$(awk -v a="$c_sync" -v b="$c_idle" -v k="$TICK" -v n="${invoices:-0}" 'BEGIN { if (n > 0) printf "%.2f", (b - a) / k * 1000 / n; else print "-" }')
  R[$n,wal]=$(awk -v b="$WAL_PEAK" 'BEGIN { printf "%.0f", b / 1048576 }')
  R[$n,cores]=$CORES_PEAK
  R[$n,peak]=$(mb "$(status_kb "$app" VmHWM)")
  # The window's own cost while nothing happens (Fyne's drawing loop, Go's
  # scheduler), per second: on a loaded machine the fetch takes longer and
  # this floor, not the invoices, grows its CPU; the figure above it is
  # the fetch's own.
  local c_rest; c_rest=$(cpu_ticks "$app")
  sleep 10
  R[$n,idlerate]=$(awk -v a="$c_rest" -v b="$(cpu_ticks "$app")" -v k="$TICK" 'BEGIN { printf "%.3f", (b - a) / k / 10 }')
  R[$n,perinvover]=$(awk -v a="$c_sync" -v b="$c_idle" -v k="$TICK" -v n="${invoices:-0}" -v r="${R[$n,idlerate]}" -v t="$(( (tidle - tsync) / 1000 ))" \
    'BEGIN { if (n > 0) { x = ((b - a) / k - r * t) * 1000 / n; printf "%.2f", (x > 0) ? x : 0 } else print "-" }')
  R[$n,rss]=$(mb "$(status_kb "$app" VmRSS)")
  stop_app "$app"
  R[$n,replica]=$(size_mb "$db")
  R[$n,replicawal]=$(size_mb "$db-wal")
  R[$n,per1000]=$(awk -v b="$(stat -c %s "$db")" -v n="$n" 'BEGIN { printf "%.2f", b / 1048576 / n * 1000 }')

  if [ -n "${SCALE_FIRST_DAY_ONLY:-}" ]; then
    stop_app "$sb"
    rm -rf "$dir/data"
    unset XDG_CONFIG_HOME
    return 0
  fi
  # A restart with 100 changes waiting, then three more syncs of 100.
  echo "scale: N=$n: a restart and incremental syncs of $CHANGES changes" >&2
  dispatch $CHANGES || echo "scale: the sandbox refused a dispatch" >&2
  sed -i 's/}$/,"live.sync_every_seconds":30}/' "$prefs"
  log=$dir/restart.log
  start_app "$log" --data-dir "$dir/data" --window-size 1280x800
  app=$APP
  local incs=() k
  for k in 1 2 3 4; do
    (( k > 1 )) && dispatch $CHANGES
    sample_until "$app" "$db" 120 logged_n "$log" "sync finished" "$k" || break
    line=$(after "$log" "sync finished" "$k")
    incs+=("$(ms_of "$(field "$line" took)")/$(field "$line" fetched)")
  done
  R[$n,incs]="${incs[*]}"
  R[$n,inc]=$(printf '%s\n' "${incs[@]}" | cut -d/ -f1 | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
  sample_until "$app" "$db" 120 fetched_and_quiet "$log" "$app"
  R[$n,rss2]=$(mb "$(status_kb "$app" VmRSS)")
  stop_app "$app"

  # The first frame over the replica, and --screenshot offline and live.
  echo "scale: N=$n: first frame, --screenshot --replica, --screenshot live" >&2
  local frames=() f
  for _ in 1 2 3 4 5; do
    f=$(timeout -k 5 60 "$BIN" --replica "$db" --startup-probe --window-size 1280x800 2>/dev/null | sed -n 's/first frame after \([0-9]*\) ms/\1/p')
    frames+=("${f:-?}")
  done
  R[$n,frame]=$(printf '%s\n' "${frames[@]}" | sort -n | sed -n 3p)
  R[$n,frames]="${frames[*]}"
  local s0 rc
  s0=$(now_ms)
  timeout -k 5 120 "$BIN" --replica "$db" --screenshot "$dir/offline.png" --window-size 1280x800 >/dev/null 2>"$dir/shot-offline.log"; rc=$?
  R[$n,shotoff]=$(awk -v a="$s0" -v b="$(now_ms)" -v rc=$rc 'BEGIN { if (rc == 124 || rc == 137) print "> 120 (killed)"; else printf "%.1f%s", (b - a) / 1000, rc ? " (exit " rc ")" : "" }')
  mkdir -p "$dir/fresh"
  s0=$(now_ms)
  timeout -k 5 300 "$BIN" --data-dir "$dir/fresh" --screenshot "$dir/live.png" --window-size 1280x800 >/dev/null 2>"$dir/shot-live.log"; rc=$?
  R[$n,shotlive]=$(awk -v a="$s0" -v b="$(now_ms)" -v rc=$rc 'BEGIN { if (rc == 124 || rc == 137) print "> 300 (killed)"; else printf "%.1f%s", (b - a) / 1000, rc ? " (exit " rc ")" : "" }')

  stop_app "$sb"
  rm -rf "$dir/data" "$dir/fresh"
  unset XDG_CONFIG_HOME
}

IFS=', ' read -r -a ns <<<"$SIZES"
for n in "${ns[@]}"; do
  measure "$n" || echo "scale: N=$n could not be measured" >&2
done

# The table: one column per N, each figure beside its target.
verdict() { # VALUE OP LIMIT
  awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
    if (v !~ /^[0-9.]+$/) { print "MISSED"; exit }
    ok = (op == "<") ? (v < l) : (v <= l); print ok ? "ok" : "MISSED" }'
}
cell() { # VALUE [OP LIMIT]
  if [ $# -ge 3 ]; then printf '%s (%s)' "${1:-?}" "$(verdict "${1:-}" "$2" "$3")"; else printf '%s' "${1:-?}"; fi
}
first=${ns[0]}
echo
echo "Scale figures ($(git rev-parse --short HEAD 2>/dev/null), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the end; one run each):"
printf '| Figure | Target |'; for n in "${ns[@]}"; do printf ' %s |' "$n"; done; echo
printf '|---|---|'; for _ in "${ns[@]}"; do printf -- '---|'; done; echo
line() { # FIGURE TARGET FUNCTION: FUNCTION N prints the cell
  printf '| %s | %s |' "$1" "$2"; for n in "${ns[@]}"; do printf ' %s |' "$($3 "$n")"; done; echo
}
c_sync()     { cell "${R[$1,sync]:-}"; printf ' ms, %s CPU-s' "${R[$1,synccpu]:-?}"; }
c_peak()     { local l=400; (( $1 > 100000 )) && l=500; cell "${R[$1,peak]:-}" '<=' $l; }
c_invoices() { cell "${R[$1,invoices]:-}"; }
c_idle()     { local l; l=$(awk -v n="$1" 'BEGIN { printf "%.0f", 45 * ((n > 100000) ? n / 100000 : 1) }'); cell "${R[$1,idle]:-}" '<=' "$l"; printf ' / %s CPU-s' "${R[$1,fetchcpu]:-?}"; }
c_perinv()   { cell "${R[$1,perinv]:-}" '<=' 1; }
c_perinvover() { cell "${R[$1,perinvover]:-}"; printf ' (idle window %s cores)' "${R[$1,idlerate]:-?}"; }
c_wal()      { cell "${R[$1,wal]:-}" '<=' 64; }
c_cores()    { cell "${R[$1,cores]:-}" '<=' 1.1; }
c_rss()      { cell "${R[$1,rss]:-}" '<=' 300; }
c_replica()  { printf '%s MB (%s per 1,000; WAL %s MB)' "${R[$1,replica]:-?}" "${R[$1,per1000]:-?}" "${R[$1,replicawal]:-?}"; }
c_inc()      { local base=${R[$first,inc]:-}; local l; l=$(awk -v b="$base" 'BEGIN { printf "%.0f", b * 1.2 }')
               if [ "$1" = "$first" ]; then cell "${R[$1,inc]:-}"; else cell "${R[$1,inc]:-}" '<=' "$l"; fi
               printf ' (ms/fetched: %s)' "${R[$1,incs]:-}"; }
c_rss2()     { cell "${R[$1,rss2]:-}" '<=' 300; }
c_frame()    { cell "${R[$1,frame]:-}" '<=' 500; printf ' (%s)' "${R[$1,frames]:-}"; }
c_shotoff()  { local v=${R[$1,shotoff]:-}; cell "${v%% *}" '<=' 5; }
c_shotlive() { cell "${R[$1,shotlive]:-}"; }
line "First sync, as the app logs it; the process's CPU until then" "-" c_sync
line "Peak resident memory, first sync and invoice fetch (MB)" "<= 400 (<= 500 above 100,000)" c_peak
line "Invoices fetched after the first sync" "-" c_invoices
line "From the first sync's end until idle (s) / CPU-s" "<= 45 s at 100,000 (45 per 100,000 above)" c_idle
line "CPU per invoice fetched (ms)" "<= 1" c_perinv
line "CPU per invoice above the idle window's own (ms)" "-" c_perinvover
line "Largest WAL during the fetch (MB)" "<= 64" c_wal
line "Most cores used over 2 s during the fetch" "<= 1" c_cores
line "Resident 10 s after idle (MB)" "<= 300" c_rss
line "Replica file at the first day's end" "-" c_replica
line "Incremental sync of $CHANGES changes, as the app logs it (median ms of 4)" "within 20% of N=$first's" c_inc
line "Resident after the restart's syncs (MB)" "<= 300" c_rss2
line "First frame over the replica (median of 5, ms)" "<= 500" c_frame
line "--screenshot --replica exits after (s)" "<= 5" c_shotoff
line "--screenshot live on an empty replica exits after (s)" "exits" c_shotlive
