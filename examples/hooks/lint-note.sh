#!/bin/sh
# PostToolUse on Edit|Write (Claude Code protocol): after a TypeScript file changes, remind
# the model to type-check it. Answers with `additionalContext`.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path":"\([^"]*\)".*/\1/p')
case "$file" in
  *.ts|*.tsx)
    printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"%s changed: run `bun run typecheck` before finishing."}}\n' "$file"
    ;;
esac
exit 0
