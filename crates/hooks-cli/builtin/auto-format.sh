#!/bin/sh
# Built-in auto-format: formats the file that changed ($HOOK_PATH) with the project's own
# formatter: prettier, then eslint --fix (JS/TS), then biome. Does nothing when the project
# has none of them. Never blocks the agent.
file="${HOOK_PATH:-}"
[ -n "$file" ] && [ -f "$file" ] || exit 0
root="${HOOK_WORKSPACE:-$PWD}"
bin="$root/node_modules/.bin"
if [ -x "$bin/prettier" ]; then
  "$bin/prettier" --write "$file" >/dev/null 2>&1 && echo "formatted $file with prettier"
elif [ -x "$bin/eslint" ]; then
  case "$file" in
    *.js|*.jsx|*.ts|*.tsx) "$bin/eslint" --fix "$file" >/dev/null 2>&1 && echo "fixed $file with eslint" ;;
  esac
elif [ -x "$bin/biome" ]; then
  "$bin/biome" format --write "$file" >/dev/null 2>&1 && echo "formatted $file with biome"
fi
exit 0
