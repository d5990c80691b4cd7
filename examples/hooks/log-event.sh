#!/bin/sh
# Any event (Autohand protocol, run in the background): append one line per event to a log,
# from the HOOK_* variables Autohand hooks receive.
log=${HOOKS_EXAMPLE_LOG:-${TMPDIR:-/tmp}/hooks-example-session.log}
cat >/dev/null
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) ${HOOK_EVENT:-?} ${HOOK_TOOL:-} ${HOOK_SESSION_ID:-}" >>"$log"
