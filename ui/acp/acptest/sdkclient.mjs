// An editor that nobody on the pincer project wrote: the client of the
// official ACP TypeScript SDK (@agentclientprotocol/sdk), which parses
// every message it receives with the SDK's own generated schemas. It
// starts `pincer acp`, runs the prompts given, answers each permission
// request with the next answer given, and prints what happened as one
// JSON object on standard output.
//
// node sdkclient.mjs PINCER_BIN PROJECT_DIR '{"prompts":[...],"answers":[...],"buffers":{...}}'
//
// An answer is "reject", "allow", or "run-it" (the option whose label ends
// in "yes, run it").
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const [bin, cwd, planText] = process.argv.slice(2);
const plan = JSON.parse(planText);
const out = { stopReasons: [], permissions: [], updates: {}, writes: [], reads: [], errors: [], text: "" };

// The SDK reports messages it cannot parse with console.error.
const consoleError = console.error;
console.error = (...args) => {
  out.errors.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
  consoleError(...args);
};

const child = spawn(bin, ["acp"], { cwd, stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const buffers = plan.buffers || {};
let answered = 0;

const app = acp
  .client({ name: "pincer-sdk-test" })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    const answer = plan.answers[answered++];
    out.permissions.push({
      title: params.toolCall.title,
      kind: params.toolCall.kind,
      options: params.options.map((o) => ({ id: o.optionId, name: o.name, kind: o.kind })),
      answer,
    });
    let option;
    if (answer === "reject") option = params.options.find((o) => o.kind === "reject_once");
    if (answer === "allow") option = params.options.find((o) => o.kind === "allow_once");
    if (answer === "run-it") option = params.options.find((o) => o.name.endsWith("yes, run it"));
    if (!option) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
    out.reads.push(params.path);
    if (!(params.path in buffers)) throw acp.RequestError.resourceNotFound(params.path);
    return { content: buffers[params.path] };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
    out.writes.push(params.path);
    buffers[params.path] = params.content;
    return {};
  })
  .onNotification(acp.methods.client.session.update, async ({ params }) => {
    const kind = params.update.sessionUpdate;
    out.updates[kind] = (out.updates[kind] || 0) + 1;
    if (kind === "agent_message_chunk" && params.update.content.type === "text") {
      out.text += params.update.content.text;
    }
  });

try {
  await app.connectWith(stream, async (ctx) => {
    const init = await ctx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
      clientInfo: { name: "pincer-sdk-test", version: "1" },
    });
    out.agent = init.agentInfo;
    out.protocolVersion = init.protocolVersion;
    const session = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    out.modes = session.modes?.availableModes.map((m) => m.id);
    for (const text of plan.prompts) {
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text }],
      });
      out.stopReasons.push(res.stopReason);
    }
  });
} catch (err) {
  out.errors.push("the client failed: " + (err?.stack || err?.message || JSON.stringify(err)));
}
out.buffers = buffers;
child.stdin.end();
await new Promise((resolve) => child.on("exit", resolve));
process.stdout.write(JSON.stringify(out) + "\n");
