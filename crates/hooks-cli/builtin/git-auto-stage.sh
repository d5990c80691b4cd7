#!/bin/sh
# Built-in git auto-stage: stages the file that changed ($HOOK_PATH) in its repository.
# Skips secrets (every file the security guard refuses to write: .env*, keys, SSH files,
# credentials files), logs and editor files (*.log, *.tmp, *.swp, *.bak), and build or
# dependency directories (node_modules/, .git/, dist/, build/, coverage/).
file="${HOOK_PATH:-}"
[ -n "$file" ] || exit 0
case "/$file" in
  __HOOKS_SECRET_FILES__) exit 0 ;;
  *.log|*.tmp|*.swp|*.bak) exit 0 ;;
  */node_modules/*|*/.git/*|*/dist/*|*/build/*|*/coverage/*) exit 0 ;;
esac
cd "${HOOK_WORKSPACE:-.}" 2>/dev/null || exit 0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
[ -e "$file" ] || [ "${HOOK_CHANGE_TYPE:-}" = "delete" ] || exit 0
git add -A -- "$file" 2>/dev/null && echo "staged $file"
exit 0
