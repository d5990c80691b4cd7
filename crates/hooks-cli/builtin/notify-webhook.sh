#!/bin/sh
# Built-in webhook notification (Slack incoming webhooks and any JSON endpoint): posts a
# message when the agent finishes a turn. Needs $SLACK_WEBHOOK_URL (or $HOOKS_WEBHOOK_URL);
# without one it says so and exits 0.
url="${HOOKS_WEBHOOK_URL:-${SLACK_WEBHOOK_URL:-}}"
if [ -z "$url" ]; then
  echo "notify-webhook: set SLACK_WEBHOOK_URL to enable" >&2
  exit 0
fi
project=$(basename "${HOOK_WORKSPACE:-$PWD}")
text="Agent finished in $project"
# The duration, human as Autohand gives it: "45s", "2m 5s", "1h 2m".
human() {
  s=$(($1 / 1000))
  if [ "$s" -ge 3600 ]; then
    echo "$((s / 3600))h $((s % 3600 / 60))m"
  elif [ "$s" -ge 60 ]; then
    echo "$((s / 60))m $((s % 60))s"
  else
    echo "${s}s"
  fi
}
case "${HOOK_DURATION:-}" in
  '' | *[!0-9]*) ;;
  *) text="$text after $(human "$HOOK_DURATION")" ;;
esac
[ -n "${HOOK_TOKENS:-}" ] && text="$text, ${HOOK_TOKENS} tokens"
[ -n "${HOOK_TOOL_CALLS_COUNT:-}" ] && text="$text, ${HOOK_TOOL_CALLS_COUNT} tool calls"
body=$(printf '{"text":"%s"}' "$(printf '%s' "$text" | sed 's/\\/\\\\/g; s/"/\\"/g')")
curl -fsS -m 10 -H 'Content-Type: application/json' -d "$body" "$url" >/dev/null || {
  echo "notify-webhook: POST to the webhook failed" >&2
  exit 1
}
exit 0
