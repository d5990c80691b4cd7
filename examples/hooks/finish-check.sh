#!/bin/sh
# Stop: the first time the agent wants to stop, send it back once to type-check and
# summarise; when it is already continuing because of this hook (`stop_hook_active`), let
# it stop, so that the hook can never keep the agent running forever.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0 ;;
esac
echo "Before finishing: run 'bun run typecheck' and summarise what changed for the user." >&2
exit 2
