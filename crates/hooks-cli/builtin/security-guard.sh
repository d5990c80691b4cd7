#!/bin/sh
# Built-in security guard, for configs that name the script (as Autohand's documentation
# does): runs the guard built into the `hooks` binary on the event JSON from stdin, which
# exits 2 with the reason on stderr to block. `hooks init` fills in the binary's path.
exec ${HOOKS_BIN} builtin security-guard
