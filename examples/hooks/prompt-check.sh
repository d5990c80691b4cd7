#!/bin/sh
# UserPromptSubmit (Claude Code protocol): refuse prompts that carry what looks like an API
# key, so that it never reaches the model or the transcript; otherwise add the project's
# conventions as context (plain text on stdout is context for this event).
input=$(cat)
if printf '%s' "$input" | grep -Eq '(sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{20,})'; then
  echo "The prompt contains what looks like an API key. Remove it and store the key in your secret manager instead." >&2
  exit 2
fi
echo "Project conventions: TypeScript in strict mode, tests with 'bun test', money is integer cents."
