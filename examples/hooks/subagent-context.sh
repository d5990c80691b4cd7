#!/bin/sh
# SubagentStart (Claude Code protocol): tell every subagent the rules of the house.
cat <<'JSON'
{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"You are a read-only helper: search and read, never edit files or run commands that change them."}}
JSON
