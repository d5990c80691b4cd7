// The TypeScript agents' way of running a command hook (Claude Code, Gemini CLI and
// Autohand all do this): `child_process.spawn(command, { shell: true })`, the event JSON
// written to stdin, stdout and stderr collected, the answer parsed on `close`.
//
// Usage: node node_round_trip.mjs ITERATIONS PAYLOAD_FILE SCRIPT
// Runs one warm-up round trip, then ITERATIONS timed ones one after another, and prints
// the total time of the timed ones in nanoseconds (node's own clock), so node's start-up
// is not counted. Fails if a hook does not answer allow.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [iterations, payloadFile, script] = process.argv.slice(2);
const payload = readFileSync(payloadFile);

function roundTrip() {
  return new Promise((resolve, reject) => {
    const child = spawn(script, {
      shell: true,
      env: { ...process.env, CLAUDE_PROJECT_DIR: process.cwd() },
    });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (d) => stdout.push(d));
    child.stderr.on('data', (d) => stderr.push(d));
    // A hook may exit before reading its stdin; the agents ignore that error too.
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code) => {
      const out = Buffer.concat(stdout).toString('utf8').trim();
      try {
        const answer = out.startsWith('{') ? JSON.parse(out) : { text: out };
        resolve({ code, answer, stderr: Buffer.concat(stderr).toString('utf8') });
      } catch (err) {
        reject(err);
      }
    });
    child.stdin.end(payload);
  });
}

function check(result) {
  const decision = result.answer?.hookSpecificOutput?.permissionDecision;
  if (result.code !== 0 || decision !== 'allow') {
    throw new Error(`the hook did not answer allow: ${JSON.stringify(result)}`);
  }
}

check(await roundTrip());
const n = Number(iterations);
const start = process.hrtime.bigint();
for (let i = 0; i < n; i++) {
  check(await roundTrip());
}
console.log((process.hrtime.bigint() - start).toString());
