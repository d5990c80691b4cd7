#!/bin/sh
# Built-in logger: appends one JSON line per event to $HOOKS_LOG_DIR/<event>.log
# (default ~/.hooks/logs). Used for session-start, session-end, stop and file-modified.
# Reads the event JSON on stdin; never blocks the agent.
dir="${HOOKS_LOG_DIR:-$HOME/.hooks/logs}"
mkdir -p "$dir" || exit 0
event="${HOOK_EVENT:-event}"
ts=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# The event JSON is one object; keep it whole, prefixed by a timestamp.
payload=$(cat | tr -d '\n')
[ -n "$payload" ] || payload='{}'
printf '{"ts":"%s","event":"%s","payload":%s}\n' "$ts" "$event" "$payload" >> "$dir/$event.log"
exit 0
