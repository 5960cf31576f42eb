#!/usr/bin/env bash
# Writes what an MCP client receives from a customer-cloud-mcp binary into DIR, then counts
# bytes and tokens: tools/list with every gate open and read-only, and get_products, get_regions
# and a jq-filtered get_products, for a client speaking 2025-06-18 and one speaking 2025-03-26.
#
#   bash tools/count-tokens/measure.sh BIN BASE_URL BEARER DIR
#
# BASE_URL and BEARER: a sandbox's (`cargo run -p cloud-sandbox -- --port 8080` prints both).
set -euo pipefail
BIN=$1 URL=$2 BEARER=$3 DIR=$4
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$DIR"
init() { printf '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"m","version":"1"}}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n' "$1"; }
call() { printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n' "$1" "$2" "$3"; }
run() { # run VERSION ARGS...: the answers' results, one per line, by id
  local version=$1; shift
  { init "$version"; printf '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
    call 3 get_products '{}'; call 4 get_regions '{}'
    call 5 get_products '{"jq":"[.items[] | {code, name}]"}'; sleep 3; } |
  CUSTOMER_CLOUD_API_BASE_URL="$URL" CUSTOMER_CLOUD_API_BEARER="$BEARER" XDG_STATE_HOME="$DIR/state" \
    XDG_CONFIG_HOME="$DIR/config" timeout 30 "$BIN" "$@" 2>/dev/null
}
split() { # split PREFIX: one file per answer's result, compact JSON
  python3 -c 'import sys,json
for line in sys.stdin:
    m=json.loads(line)
    if m.get("id") in (2,3,4,5):
        open(sys.argv[1]+"-"+{2:"tools-list",3:"get_products",4:"get_regions",5:"get_products-jq"}[m["id"]]+".json","w").write(json.dumps(m["result"],separators=(",",":")))' "$1"
}
GATES=(--allow-writes --allow-destructive --allow-purchases --allow-any-amount --allow-access-grants)
run 2025-06-18 "${GATES[@]}" | split "$DIR/all-2025-06-18"
run 2025-06-18 | split "$DIR/readonly-2025-06-18"
run 2025-03-26 "${GATES[@]}" | split "$DIR/all-2025-03-26"
cargo run -q --release --manifest-path "$HERE/Cargo.toml" -- "$DIR"/*.json
