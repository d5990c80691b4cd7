#!/bin/sh
# PreToolUse on Bash, for commands starting with `npm ` (the config's `if` condition): this
# repository uses bun, so rewrite the command instead of letting npm create a second lock
# file. Answers with Claude Code's `updatedInput`.
input=$(cat)
command=$(printf '%s' "$input" | sed -n 's/.*"command":"\([^"]*\)".*/\1/p')
case "$command" in
  npm\ *) ;;
  *) exit 0 ;;
esac
rewritten="bun${command#npm}"
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"%s"},"additionalContext":"This repository uses bun: ran `%s` instead of `%s`."}}\n' \
  "$rewritten" "$rewritten" "$command"
