#!/bin/sh
# post_tool_use on Bash (a Fabro run hook): when a test run failed, tell the model so before
# it moves on. Plain text on stdout is context for the model.
input=$(cat)
case "$input" in
  *'"command":"bun test'*) ;;
  *) exit 0 ;;
esac
case "$input" in
  *'"exit_code":0'*) echo "The test suite passed." ;;
  *) echo "The test suite failed: fix the failing tests before changing anything else." ;;
esac
