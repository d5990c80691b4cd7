#!/usr/bin/env node
// The `hooks` command of the npm package `agentic-hooks`: finds the native binary of this
// platform's package (one of the main package's optionalDependencies, which npm installs
// only where its os, cpu and libc fields match) and runs it with this process's arguments
// and standard streams. No install script, no download: the binary is in the package.
//
// The binary is started by its own path, so `hooks install AGENT` writes that path (the
// native binary's, never this script's) into the agent's settings: an agent then starts
// the binary on each hook call, without Node.
'use strict';

const { spawn } = require('child_process');
const os = require('os');

// The platform packages by `${process.platform}-${process.arch}`, written by
// `cargo xtask dist` from its table of platforms.
const PACKAGES = {};

/** Whether this Linux runs on musl rather than glibc (Node's report says glibc's version). */
function isMusl() {
  try {
    const report = process.report.getReport();
    const header = typeof report === 'string' ? JSON.parse(report).header : report.header;
    return !header.glibcVersionRuntime;
  } catch (_) {
    return false;
  }
}

/** The path of the installed platform package's binary, or null. */
function binary() {
  const exe = process.platform === 'win32' ? 'hooks.exe' : 'hooks';
  const found = [];
  for (const candidate of PACKAGES[`${process.platform}-${process.arch}`] || []) {
    try {
      found.push({ libc: candidate.libc, path: require.resolve(`${candidate.name}/bin/${exe}`) });
    } catch (_) {
      // Not installed: npm skipped it on this platform.
    }
  }
  if (found.length > 1) {
    // An npm that ignores the libc field installed both Linux builds: take this libc's.
    const libc = isMusl() ? 'musl' : 'glibc';
    return (found.find((f) => f.libc === libc) || found[0]).path;
  }
  return found.length === 1 ? found[0].path : null;
}

const bin = binary();
if (bin === null) {
  const names = (PACKAGES[`${process.platform}-${process.arch}`] || []).map((c) => c.name);
  process.stderr.write(
    `agentic-hooks: no binary for ${process.platform}-${process.arch}` +
      (names.length
        ? `: its package (${names.join(' or ')}) is not installed; reinstall without --no-optional / --omit=optional\n`
        : ': this platform has no build; install from source with `cargo install agentic-hooks-cli`\n'),
  );
  process.exit(1);
}

const child = spawn(bin, process.argv.slice(2), { stdio: 'inherit' });

// A signal sent to this process alone (not to its process group, which the child shares)
// is passed on to the binary; the launcher then ends as the binary did.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGBREAK'];
const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
  }
};
for (const signal of SIGNALS) {
  try {
    process.on(signal, forward);
  } catch (_) {
    // A signal this platform cannot listen for.
  }
}

child.on('error', (e) => {
  process.stderr.write(`agentic-hooks: cannot start ${bin}: ${e.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // End by the same signal, so the caller sees what the binary's caller would have.
    for (const s of SIGNALS) {
      process.removeAllListeners(s);
    }
    process.kill(process.pid, signal);
    // A signal whose default action does not end a process (or Windows): the shell's code.
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 1000);
    return;
  }
  process.exit(code === null ? 1 : code);
});
