# Shared by the HTTP ingest benchmarks (scripts/bench-ingest, scripts/bench/ingest-postgres).
# Needs WORK (a temporary folder), CONNECTIONS, DURATION and the pids array set by the caller.

cat > "$WORK/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"phone_number":"5321234567","error_message":"Core switch sw-core-01 down: 10.0.0.1 unreachable"}'
LUA
# A keyed alert per request: Alertmanager's own payload (webhook v4) with a group key never
# sent before, so each is a new alert (no dedupe): `wrk … -- TAG` keeps two wrk processes'
# keys apart, each thread numbers its own.
cat > "$WORK/alertmanager.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
function init(args)
  prefix = (args[1] or "x") .. "-" .. tostring(tid)
  n = 0
end
function request()
  n = n + 1
  local key = prefix .. "-" .. n
  return wrk.format(nil, nil, nil, '{"version":"4","groupKey":"{}:{alertname=\\"DiskFull\\",group=\\"' .. key ..
    '\\"}","status":"firing","receiver":"voice-alert","groupLabels":{"alertname":"DiskFull"},' ..
    '"commonLabels":{"alertname":"DiskFull","instance":"db1","severity":"critical"},"commonAnnotations":{"summary":"Disk full on db1"},' ..
    '"externalURL":"http://alertmanager:9093","alerts":[{"status":"firing","labels":{"alertname":"DiskFull","instance":"db1",' ..
    '"severity":"critical"},"annotations":{"summary":"Disk full on db1"},"startsAt":"2026-11-25T10:00:00Z",' ..
    '"endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prometheus:9090/graph","fingerprint":"' .. key .. '"}]}')
end
LUA
# What the load sends: LUA (the wrk script) and QUERY (appended to the webhook URL, after the key).
LUA="$WORK/post.lua"
QUERY=""
# use_payload plain|alertmanager
use_payload() {
  case "$1" in
    plain) LUA="$WORK/post.lua"; QUERY="" ;;
    alertmanager) LUA="$WORK/alertmanager.lua"; QUERY="&to=5321234567" ;;
    *) echo "--payload takes plain or alertmanager" >&2; exit 2 ;;
  esac
}

# Starts "$@" in the background, waits for its READY/listening line, sets URL and PID.
start_server() {
  local log="$WORK/server.$RANDOM.log"
  "$@" >"$log" 2>&1 &
  PID=$!
  pids+=("$PID")
  for _ in $(seq 100); do
    URL=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$log" | head -1 || true)
    [ -n "$URL" ] && return 0
    sleep 0.1
  done
  echo "server did not start: $(cat "$log")" >&2
  exit 1
}

# Server CPU time (user + system) so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# Runs wrk; prints "accepted_per_s p50_ms p99_ms peak_rss_mb cpu_us_per_request", and
# with a third argument (a command that prints CPU clock ticks, e.g. postgres_ticks) a sixth
# field: that command's CPU per request over the same window.
# CPU per request is the steadier figure on a shared machine: throughput swings with
# whatever else runs, the work a request costs much less.
measure() {
  local url=$1 pid=$2 also=${3:-}
  wrk -t2 -c$CONNECTIONS -d2s -s "$LUA" "$url" -- "w$RANDOM" >/dev/null # warm-up
  local out c0 c1 a0=0 a1=0
  [ -z "$also" ] || a0=$($also)
  c0=$(cpu_ticks "$pid")
  out=$(wrk -t2 -c$CONNECTIONS -d${DURATION}s --latency -s "$LUA" "$url" -- "m$RANDOM")
  c1=$(cpu_ticks "$pid")
  [ -z "$also" ] || a1=$($also)
  local total secs non2xx p50 p99 rss
  total=$(echo "$out" | awk '/requests in/ {print $1}')
  secs=$(echo "$out" | awk '/requests in/ {gsub(/s,/,"",$4); print $4}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  p50=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  rss=$(awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$pid/status")
  awk -v t="$total" -v s="$secs" -v n="${non2xx:-0}" -v a="$p50" -v b="$p99" -v r="$rss" \
      -v c="$((c1 - c0))" -v e="$((a1 - a0))" -v also="$also" -v hz="$(getconf CLK_TCK)" '
    function ms(x) { if (x ~ /us$/) return x/1000; if (x ~ /ms$/) return x+0; if (x ~ /s$/) return x*1000; return x }
    BEGIN {
      printf "%.0f %.2f %.2f %s %.0f", (t-n)/s, ms(a), ms(b), r, c/hz*1e6/t
      if (also != "") printf " %.0f", e/hz*1e6/t
      printf "\n"
    }'
}


# The whole machine's CPU so far, from /proc/stat: "busy_ticks total_ticks".
machine_ticks() { awk '/^cpu / { b = $2 + $3 + $4 + $7 + $8 + $9; print b, b + $5 + $6 }' /proc/stat; }
# busy_percent "B0 T0" "B1 T1": how busy the machine's cores were between two machine_ticks.
busy_percent() { awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.0f", 100 * (y[1] - x[1]) / (y[2] - x[2]) }'; }

# build_revision REV DIR: the binary of another commit, built in a worktree at DIR (removed
# by the caller's cleanup with `git worktree remove`), so that a benchmark compares before
# and after in one run, on one machine. Prints the binary's path.
build_revision() {
  git worktree add --detach "$2" "$1" >/dev/null 2>&1
  ln -s "$PWD/node_modules" "$2/node_modules"
  (cd "$2" && scripts/build >/dev/null)
  echo "$2/dist/voice-alert"
}
