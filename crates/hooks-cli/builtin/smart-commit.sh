#!/bin/sh
# Built-in smart commit: after a turn, runs the project's lint and test scripts (npm, cargo
# or make, whichever the project has) and, when they pass, commits what is staged. The
# message is the host's model's when the engine gives this hook a prompt channel
# (HOOKS_PROMPT_SOCKET, asked through `hooks builtin ask`), else a summary from git (files
# and line counts). Off by default.
cd "${HOOK_WORKSPACE:-.}" 2>/dev/null || exit 0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
git diff --cached --quiet && exit 0
if [ -f package.json ]; then
  grep -q '"lint"' package.json && { npm run -s lint || { echo "smart-commit: lint failed" >&2; exit 1; }; }
  grep -q '"test"' package.json && { npm test -s || { echo "smart-commit: tests failed" >&2; exit 1; }; }
elif [ -f Cargo.toml ]; then
  cargo test -q || { echo "smart-commit: tests failed" >&2; exit 1; }
elif [ -f Makefile ] && grep -q '^test:' Makefile; then
  make -s test || { echo "smart-commit: tests failed" >&2; exit 1; }
fi
stat=$(git diff --cached --shortstat | sed 's/^ *//')
subject=
body=
if [ -n "${HOOKS_PROMPT_SOCKET:-}" ]; then
  # The question: the staged change's --stat and the first 24 KiB of its diff.
  answer=$({
    printf '%s\n' "Write a git commit message for the staged change below: a subject line of at most 72 characters in the imperative mood, then, if the change needs it, a blank line and a short body. Answer with the message only."
    echo
    git diff --cached --stat
    echo
    git diff --cached | head -c 24576
  } | hooks builtin ask) || answer=
  # Control characters out (tabs become spaces), Markdown fences dropped; the first
  # non-blank line is the subject (without quotes or backticks around it), the rest the body.
  answer=$(printf '%s\n' "$answer" | tr '\t' ' ' | tr -d '\000-\010\013-\037\177' | sed '/^[[:space:]]*```/d')
  subject=$(printf '%s\n' "$answer" | awk '/[^[:space:]]/ { print; exit }' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//; s/^["`'\'']\(.*\)["`'\'']$/\1/; s/^[[:space:]]*//; s/[[:space:]]*$//')
  [ -n "$subject" ] && body=$(printf '%s\n' "$answer" | awk 'seen { print; next } /[^[:space:]]/ { seen = 1 }' | sed '/[^[:space:]]/,$!d')
fi
if [ -z "$subject" ]; then
  files=$(git diff --cached --name-only | wc -l | tr -d ' ')
  first=$(git diff --cached --name-only | head -1)
  if [ "$files" = 1 ]; then subject="Update $first"; else subject="Update $first and $((files - 1)) more"; fi
fi
if [ -n "$body" ]; then
  git commit -q -m "$subject" -m "$body" -m "$stat" && echo "committed: $subject"
else
  git commit -q -m "$subject" -m "$stat" && echo "committed: $subject"
fi
