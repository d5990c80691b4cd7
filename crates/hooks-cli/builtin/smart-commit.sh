#!/bin/sh
# Built-in smart commit: after a turn, runs the project's lint and test scripts (npm, cargo
# or make, whichever the project has) and, when they pass, commits what is staged with a
# message that summarises the change (files and line counts from git). Off by default.
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
files=$(git diff --cached --name-only | wc -l | tr -d ' ')
first=$(git diff --cached --name-only | head -1)
stat=$(git diff --cached --shortstat | sed 's/^ *//')
if [ "$files" = 1 ]; then subject="Update $first"; else subject="Update $first and $((files - 1)) more"; fi
git commit -q -m "$subject" -m "$stat" && echo "committed: $subject"
