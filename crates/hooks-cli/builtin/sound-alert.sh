#!/bin/sh
# Built-in sound alert: plays a short sound when the agent finishes a turn.
# macOS: afplay; Windows: PowerShell's [console]::beep(); Linux and others: paplay, then
# aplay, then speaker-test (one short tone), each tried in turn when the one before is
# missing or fails; at last the terminal bell.
has() { command -v "$1" >/dev/null 2>&1; }
case "$(uname -s 2>/dev/null)" in
  Darwin)
    has afplay && afplay /System/Library/Sounds/Glass.aiff >/dev/null 2>&1 && exit 0 ;;
  MINGW*|MSYS*|CYGWIN*)
    has powershell.exe && powershell.exe -NoProfile -Command '[console]::beep(880, 300)' >/dev/null 2>&1 && exit 0 ;;
esac
has paplay && paplay /usr/share/sounds/freedesktop/stereo/complete.oga >/dev/null 2>&1 && exit 0
has aplay && aplay -q /usr/share/sounds/alsa/Front_Center.wav >/dev/null 2>&1 && exit 0
if has speaker-test; then
  # speaker-test plays until stopped: one loop of a sine tone, and never more than 2 s.
  if has timeout; then
    timeout 2 speaker-test -t sine -f 880 -l 1 >/dev/null 2>&1 && exit 0
  else
    speaker-test -t sine -f 880 -l 1 >/dev/null 2>&1 && exit 0
  fi
fi
printf '\a' > /dev/tty 2>/dev/null || true
exit 0
