#!/bin/sh
# Built-in sound alert: plays a short sound when the agent finishes a turn.
# macOS: afplay; Linux: paplay, aplay or speaker-test; otherwise the terminal bell.
if command -v afplay >/dev/null 2>&1 && [ -f /System/Library/Sounds/Glass.aiff ]; then
  afplay /System/Library/Sounds/Glass.aiff
elif command -v paplay >/dev/null 2>&1 && [ -f /usr/share/sounds/freedesktop/stereo/complete.oga ]; then
  paplay /usr/share/sounds/freedesktop/stereo/complete.oga
elif command -v aplay >/dev/null 2>&1 && [ -f /usr/share/sounds/alsa/Front_Center.wav ]; then
  aplay -q /usr/share/sounds/alsa/Front_Center.wav
else
  printf '\a' > /dev/tty 2>/dev/null || true
fi
exit 0
