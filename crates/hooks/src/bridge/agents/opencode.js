// agentic-hooks: the hooks engine's bridge plugin for OpenCode.
// Written by `hooks install opencode`: OpenCode runs the hooks engine's bridge here.
//
// OpenCode loads every `plugin/*.js` of its config directories (`~/.config/opencode/`,
// a project's `.opencode/`). This plugin sends each tool call, each tool result and the
// session events to `hooks bridge opencode`, which runs the hooks of the engine's config
// and answers with one JSON object on stdout:
//
// - before a tool runs (`tool.execute.before`): `{"decision": "deny", "reason": R}` stops
//   the call (this plugin throws `new Error(R)`, which the model gets as the tool's
//   result), `{"args": {...}}` rewrites its arguments in place (what OpenCode runs);
//   nothing on stdout lets it run. The call is also stopped when the bridge cannot be
//   started, fails (exit code other than 0), answers what is not JSON, or does not answer
//   within the timeout: a broken bridge never lets a call through unchecked.
// - after a tool ran (`tool.execute.after`): `{"context": C}` is appended to the tool's
//   output, which the model reads. A failure here changes nothing (the call already ran).
// - session events (`session.created`, `session.idle`, `session.deleted`): the bridge is
//   started and not waited for, so the agent never waits on these.
//
// `opencode --pure` (or `OPENCODE_PURE=1`) runs OpenCode without plugins: this one too.
// `hooks uninstall opencode` removes this file (if it is still as written).

import { spawn } from "node:child_process";

// The hooks program. `hooks install opencode` writes its absolute path here.
const HOOKS_BIN = "hooks";

// How long a tool call waits for the bridge before it is stopped, in milliseconds:
// `HOOKS_OPENCODE_TIMEOUT_MS`, else 310 s (the engine gives each hook at most 300 s, so
// the engine's own timeouts answer first).
const TIMEOUT_MS = (() => {
  const n = Number.parseInt(process.env.HOOKS_OPENCODE_TIMEOUT_MS ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : 310_000;
})();

// How long a session event's bridge may run before it is ended, in milliseconds.
const EVENT_TIMEOUT_MS = 60_000;

// The OpenCode events sent to the bridge, under OpenCode's own names.
const SESSION_EVENTS = new Set(["session.created", "session.idle", "session.deleted"]);

/** Runs `hooks bridge opencode` with `payload` on stdin; resolves to what it did. */
function callBridge(payload, timeoutMs) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(HOOKS_BIN, ["bridge", "opencode"], { stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ error: `could not start ${HOOKS_BIN}: ${error.message}` });
      return;
    }
    let stdout = "";
    let stderr = "";
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...result, stdout, stderr });
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (error) => finish({ error: `could not run ${HOOKS_BIN}: ${error.message}` }));
    child.on("close", (code, signal) =>
      finish(code === 0 ? { code } : { error: `exited with ${code ?? signal}` }),
    );
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/** Starts the bridge for a session event, and does not wait for it. */
function notify(payload) {
  try {
    const child = spawn(HOOKS_BIN, ["bridge", "opencode"], { stdio: ["pipe", "ignore", "ignore"] });
    const timer = setTimeout(() => child.kill("SIGKILL"), EVENT_TIMEOUT_MS);
    timer.unref?.();
    child.on("error", () => {});
    child.on("close", () => clearTimeout(timer));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
  } catch {
    // A session event never stops the agent.
  }
}

/** The bridge's answer as an object: `{}` for none; throws when it is not one. */
function answerOf(result) {
  if (result.error) {
    const said = result.stderr?.trim();
    throw new Error(`hooks bridge ${result.error}${said ? `: ${said}` : ""}`);
  }
  const text = result.stdout.trim();
  if (text === "") return {};
  const answer = JSON.parse(text);
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw new Error("not a JSON object");
  }
  return answer;
}

export const AgenticHooks = async ({ directory }) => {
  const base = (sessionID) => ({ session_id: sessionID, cwd: directory });
  return {
    "tool.execute.before": async (input, output) => {
      const payload = {
        hook_event_name: "tool.execute.before",
        ...base(input.sessionID),
        tool_name: input.tool,
        tool_input: output.args,
        tool_use_id: input.callID,
      };
      const result = await callBridge(payload, TIMEOUT_MS);
      let answer;
      try {
        answer = answerOf(result);
      } catch (error) {
        throw new Error(
          `${error.message.startsWith("hooks bridge") ? error.message : `hooks bridge answered badly (${error.message})`}, so the call is blocked`,
        );
      }
      if (answer.decision === "deny") {
        throw new Error(String(answer.reason ?? "blocked by a hook"));
      }
      const args = answer.args;
      if (args && typeof args === "object" && !Array.isArray(args) && output.args) {
        // In place: OpenCode runs the object it gave, not one put in its place.
        for (const key of Object.keys(output.args)) {
          if (!(key in args)) delete output.args[key];
        }
        Object.assign(output.args, args);
      }
    },
    "tool.execute.after": async (input, output) => {
      const payload = {
        hook_event_name: "tool.execute.after",
        ...base(input.sessionID),
        tool_name: input.tool,
        tool_input: input.args,
        tool_use_id: input.callID,
        tool_response: { title: output.title, output: output.output, metadata: output.metadata },
      };
      let answer;
      try {
        answer = answerOf(await callBridge(payload, TIMEOUT_MS));
      } catch {
        return;
      }
      if (typeof answer.context === "string" && answer.context !== "") {
        output.output =
          typeof output.output === "string" && output.output !== ""
            ? `${output.output}\n\n${answer.context}`
            : answer.context;
      }
    },
    event: async ({ event }) => {
      if (!SESSION_EVENTS.has(event?.type)) return;
      const sessionID = event.properties?.sessionID ?? event.properties?.info?.id;
      notify({ hook_event_name: event.type, ...base(sessionID) });
    },
  };
};
