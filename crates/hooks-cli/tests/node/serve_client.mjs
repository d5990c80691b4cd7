// A real JSON-RPC client for `hooks serve --stdio`: vscode-jsonrpc, as VS Code extensions
// use it, drives the built binary over its stdin and stdout.
//
// Run by the Rust test `serve::vscode_jsonrpc_drives_the_server` with:
//   HOOKS_BIN     the `hooks` binary
//   HOOKS_CONFIG  the config file it serves (see the test for its hooks)
// Prints one JSON summary on stdout and exits 0 when every check passed, 1 when one
// failed (the failures are in the summary), 3 when vscode-jsonrpc is not installed.

import { spawn } from 'node:child_process';

let rpc;
try {
  rpc = await import('vscode-jsonrpc/node');
} catch (error) {
  console.error(
    `vscode-jsonrpc is not installed (${error.message}): run \`npm ci\` at the repository root`,
  );
  process.exit(3);
}
const {
  CancellationTokenSource,
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} = rpc.default ?? rpc;

const bin = process.env.HOOKS_BIN;
const config = process.env.HOOKS_CONFIG;
if (!bin || !config) {
  console.error('HOOKS_BIN and HOOKS_CONFIG must be set');
  process.exit(2);
}

const failures = [];
function check(condition, what, detail) {
  if (!condition) failures.push(detail === undefined ? what : `${what}: ${JSON.stringify(detail)}`);
}

const child = spawn(bin, ['serve', '--stdio', '-c', config], { stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.setEncoding('utf8');
child.stderr.on('data', (chunk) => {
  stderr += chunk;
});
const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

const connection = createMessageConnection(
  new StreamMessageReader(child.stdout),
  new StreamMessageWriter(child.stdin),
);
connection.onError(([error]) => failures.push(`connection error: ${error.message}`));

// Every notification the server documents, recorded in arrival order.
const METHODS = [
  'preTool', 'postTool', 'fileModified', 'prePrompt', 'stop', 'postResponse', 'sessionStart',
  'sessionEnd', 'sessionError', 'subagentStop', 'permissionRequest', 'notification',
].map((m) => `autohand.hook.${m}`);
const notifications = [];
const waiters = new Map();
for (const method of METHODS) {
  connection.onNotification(method, (params) => {
    notifications.push({ method, params });
    waiters.get(method)?.(params);
  });
}
/** Resolves with the params of the next notification `method`. */
function next(method) {
  return new Promise((resolve) => waiters.set(method, resolve));
}
connection.listen();

/** The error a request was rejected with, as plain data. */
async function failure(promise) {
  try {
    const result = await promise;
    return { unexpected_result: result };
  } catch (error) {
    return { code: error.code, message: error.message, data: error.data ?? null };
  }
}

const summary = {};

const init = await connection.sendRequest('initialize', { processId: process.pid, capabilities: {} });
summary.initialize = { name: init.serverInfo.name, methods: init.capabilities.methods };
const missing = METHODS.filter((m) => !init.capabilities.notifications.includes(m));
check(missing.length === 0, 'initialize lists every notification the server sends', missing);

const list = await connection.sendRequest('hooks/list', {});
summary.list = list.events.flatMap((e) => e.hooks).map((h) => ({
  id: h.id, event: h.event, type: h.type, matcher: h.matcher, enabled: h.enabled,
  state: h.state, trust: h.trust, description: h.description,
}));
check(list.total === 4 && list.enabled === 3, 'hooks/list counts the hooks', list);

// Two dispatches in flight at once. Their guard hooks meet at a FIFO: the `rm -rf` one
// waits to read what the `ls` one writes, so both can only finish if the server runs them
// concurrently. Then the guard blocks `rm -rf` (exit 2) and lets `ls` pass.
const rm = connection.sendRequest('hooks/dispatch', {
  event: 'PreToolUse',
  payload: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'call-rm' },
});
const ls = connection.sendRequest('hooks/dispatch', {
  event: 'pre-tool',
  payload: { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call-ls' },
});
const [blocked, allowed] = await Promise.all([rm, ls]);
const brief = (agg) => ({
  event: agg.event,
  decision: agg.decision,
  reason: agg.reason,
  continue: agg.continue,
  hooks: agg.hooks.map((h) => ({ id: h.id, status: h.status, exit_code: h.exit_code, decision: h.decision })),
});
summary.blocked = brief(blocked);
summary.allowed = brief(allowed);
check(blocked.decision === 'block', 'rm -rf is blocked', blocked);
check(blocked.reason === 'rm -rf is not allowed', 'the reason is the hook stderr', blocked.reason);
check(allowed.decision === 'none' && allowed.hooks[0]?.status === 'ok', 'ls is allowed', allowed);

// More events, for their notifications.
const prompt = await connection.sendRequest('hooks/dispatch', {
  event: 'UserPromptSubmit',
  payload: { prompt: 'fix the tests', timestamp: '2025-01-01T00:00:00Z' },
});
summary.prompt = { decision: prompt.decision, additional_context: prompt.additional_context };
// Params by position: vscode-jsonrpc sends several arguments as an array.
await connection.sendRequest('hooks/dispatch', 'SessionStart', { source: 'startup', timestamp: '2025-01-01T00:00:00Z' });
await connection.sendRequest('hooks/dispatch', {
  event: 'file-modified',
  payload: { file_path: 'src/main.rs', change_type: 'modify', tool_use_id: 'call-edit', timestamp: '2025-01-01T00:00:00Z' },
});

await connection.sendRequest('hooks/dispatch', {
  event: 'PostToolUse',
  payload: { tool_name: 'Bash', tool_use_id: 'call-ls', tool_response: 'Cargo.toml', duration_ms: 12, timestamp: '2025-01-01T00:00:00Z' },
});
await connection.sendRequest('hooks/dispatch', {
  event: 'post-response',
  payload: { tokens_used: 1200, tool_calls_count: 3, duration: 5000, timestamp: '2025-01-01T00:00:00Z' },
});

// Every completed turn, whatever the event is called, is `stop` then its alias
// `postResponse`, with the same params (Autohand's documented pair).
for (const event of ['stop', 'post-response', 'Stop']) {
  const before = notifications.length;
  await connection.sendRequest('hooks/dispatch', {
    event,
    payload: { tokens_used: 7, tool_calls_count: 1, duration: 10, timestamp: '2025-01-01T00:00:00Z' },
  });
  const sent = notifications.slice(before);
  check(
    JSON.stringify(sent.map((n) => n.method)) === '["autohand.hook.stop","autohand.hook.postResponse"]'
      && JSON.stringify(sent[0].params) === JSON.stringify(sent[1].params),
    `a dispatched ${event} sends stop, then postResponse with the same params`,
    sent,
  );
}

// Cancellation: a hook that never ends, cancelled once its dispatch has started (its
// notification says so). The server kills the hook and answers RequestCancelled.
const source = new CancellationTokenSource();
const started = next('autohand.hook.notification');
const hanging = connection.sendRequest(
  'hooks/dispatch',
  { event: 'Notification', payload: { notification_type: 'idle', message: 'waiting', timestamp: '2025-01-01T00:00:00Z' } },
  source.token,
);
await started;
source.cancel();
const cancelled = await failure(hanging);
summary.cancelled = {
  code: cancelled.code,
  message: cancelled.message,
  hooks: cancelled.data?.hooks?.map((h) => ({ id: h.id, status: h.status, failure: h.failure?.kind })),
};
check(cancelled.code === -32800, 'a cancelled request answers -32800', cancelled);

summary.unknown_method = await failure(connection.sendRequest('hooks/nope', {}));
check(summary.unknown_method.code === -32601, 'an unknown method is -32601', summary.unknown_method);
summary.unknown_event = await failure(connection.sendRequest('hooks/dispatch', { event: 'PreToolUs' }));
check(summary.unknown_event.code === -32602, 'an unknown event is -32602', summary.unknown_event);
check(/did you mean/.test(summary.unknown_event.message ?? ''), 'with a did-you-mean', summary.unknown_event);

const explained = await connection.sendRequest('hooks/explain', {
  event: 'PreToolUse',
  payload: { tool_name: 'Edit', tool_input: {} },
});
summary.explain = explained.hooks.map((h) => ({ id: h.id, runs: h.runs, why_not: h.why_not }));

const stripped = notifications.map(({ method, params }) => {
  const { timestamp, ...rest } = params;
  check(typeof timestamp === 'string' && timestamp.length > 0, `${method} has a timestamp`, params);
  return { method, params: rest };
});
// The first two come from the concurrent dispatches, which race to notify: sort them.
summary.concurrent_notifications = stripped
  .slice(0, 2)
  .sort((a, b) => String(a.params.toolId).localeCompare(String(b.params.toolId)));
summary.notifications = stripped.slice(2);
const tools = summary.concurrent_notifications.map((n) => `${n.method} ${n.params.toolId}`);
check(
  JSON.stringify(tools) === '["autohand.hook.preTool call-ls","autohand.hook.preTool call-rm"]',
  'one preTool notification per concurrent dispatch, before their answers',
  tools,
);

summary.shutdown = await connection.sendRequest('shutdown');
await connection.sendNotification('exit');
const { code, signal } = await exited;
summary.exit = { code, signal };
check(code === 0, 'exit after shutdown is exit code 0', { code, signal, stderr });
connection.dispose();

summary.failures = failures;
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(failures.length === 0 ? 0 : 1);
