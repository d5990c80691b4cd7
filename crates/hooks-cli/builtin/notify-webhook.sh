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
[ -n "${HOOK_DURATION:-}" ] && text="$text after $((HOOK_DURATION / 1000))s"
[ -n "${HOOK_TOKENS:-}" ] && text="$text, ${HOOK_TOKENS} tokens"
[ -n "${HOOK_TOOL_CALLS_COUNT:-}" ] && text="$text, ${HOOK_TOOL_CALLS_COUNT} tool calls"
body=$(printf '{"text":"%s"}' "$(printf '%s' "$text" | sed 's/\\/\\\\/g; s/"/\\"/g')")
curl -fsS -m 10 -H 'Content-Type: application/json' -d "$body" "$url" >/dev/null || {
  echo "notify-webhook: POST to the webhook failed" >&2
  exit 1
}
exit 0
