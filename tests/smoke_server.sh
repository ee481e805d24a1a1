#!/usr/bin/env bash
# Start script/server as a user would (no DATABASE_URL, no REDIS_URL), wait for /healthz,
# print it, stop the server. Used by .ci/run; runnable by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${SMOKE_PORT:-18765}
tmp=$(mktemp -d)
log=$tmp/server.log
( env -u DATABASE_URL -u REDIS_URL -u CELERY_BROKER_URL VAR_DIR="$tmp/var" PORT=$port \
    script/server >"$log" 2>&1 ) &
pid=$!
cleanup() { pkill -TERM -P $pid 2>/dev/null || true; kill $pid 2>/dev/null || true; sleep 1; pkill -f "fdeplatform.core.serve 127.0.0.1 $port" 2>/dev/null || true; }
trap cleanup EXIT
start=$(date +%s)
for _ in $(seq 120); do
  if body=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null); then
    echo "healthz after $(( $(date +%s) - start ))s: $body"
    # Read the whole page before matching: "curl | grep -q" fails under pipefail when grep
    # stops reading at its first match and curl cannot finish writing (curl exit 23).
    page=$(curl -fsS "http://127.0.0.1:$port/cases/")
    grep -q "<h1>Cases</h1>" <<<"$page"
    echo "smoke: cases page served"
    exit 0
  fi
  sleep 1
done
echo "script/server did not answer /healthz within 120s; log:" >&2
cat "$log" >&2
exit 1
