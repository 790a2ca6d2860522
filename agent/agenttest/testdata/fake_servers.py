#!/usr/bin/env python3
"""Scripted local model servers with their real wire quirks, for trying
pincer by hand (the Go tests use agenttest).

usage: fake_servers.py PORT SCRIPT.json --kind KIND [--ctx N] [--log FILE]
KIND is one of:
  ollama    /api/ps (empty until the first chat: the model is not loaded),
            /api/show; /v1 streams usage only with stream_options; tool calls
            whole in one chunk, no index, arguments as a JSON object,
            finish_reason "stop"; a prompt over --ctx (default 2048) is
            silently cut (prompt_tokens says what was kept)
  lmstudio  /api/v0/models with loaded_context_length; over --ctx the LM
            Studio overflow wording; usage and tool calls as OpenAI
  llamacpp  /props n_ctx, /tokenize, timings in the last chunk,
            reasoning_content, exceed_context_size_error over --ctx
  vllm      refuses tools ("auto" tool choice needs --enable-auto-tool-choice),
            /v1/models max_model_len; delta.reasoning
  openrouter  ": OPENROUTER PROCESSING" comments; a reply {"error": ...}
            sends an error object mid-stream after some text
SCRIPT is a list of replies used in order (the last repeats):
  {"text": "..."} {"raw": "..."} (content as is: text tool calls, <think>)
  {"tool": "read_file", "args": {...}}  {"reasoning": "..."} may go with any
  {"error": "..."} (openrouter: mid-stream error)
--modelfile-ctx N makes Ollama's /api/show list num_ctx N (a Modelfile's).
--no-tools refuses any request with tools as Ollama does for a model
without tool calling.
--hide-window answers none of the window questions (the window is then
learned only from a refusal).
Every chat request is appended to --log (default /tmp/fake-servers.jsonl).
"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port = int(sys.argv[1])
script = json.load(open(sys.argv[2]))
def opt(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
kind = opt("--kind", "llamacpp")
ctx = int(opt("--ctx", "2048" if kind == "ollama" else "0"))
log = opt("--log", "/tmp/fake-servers.jsonl")
state = {"n": 0, "loaded": False}


def sse(obj):
    return "data: " + json.dumps(obj) + "\n\n"


def chunk(delta, finish=None, **extra):
    c = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "fake",
         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    c.update(extra)
    return sse(c)


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def json(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)

    def do_GET(self):
        p = self.path
        if "--hide-window" in sys.argv and p != "/v1/models":
            self.send_response(404); self.end_headers(); return
        if kind == "ollama" and p == "/api/ps":
            models = [{"name": "fake", "model": "fake", "context_length": ctx}] if state["loaded"] else []
            return self.json(200, {"models": models})
        if kind == "ollama" and p == "/api/tags":
            return self.json(200, {"models": [{"name": "fake", "model": "fake"}]})
        if kind == "llamacpp" and p == "/props":
            return self.json(200, {"default_generation_settings": {"n_ctx": ctx}, "n_ctx": ctx})
        if kind == "lmstudio" and p == "/api/v0/models":
            return self.json(200, {"data": [{"id": "fake", "state": "loaded", "max_context_length": 131072, "loaded_context_length": ctx}]})
        if p.endswith("/models"):
            m = {"id": "fake", "object": "model"}
            if kind == "vllm" and ctx:
                m["max_model_len"] = ctx
            return self.json(200, {"object": "list", "data": [m]})
        self.send_response(404); self.end_headers()

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        req = json.loads(raw or b"{}")
        if kind == "ollama" and self.path == "/api/show":
            show = {"model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960}}
            if "--modelfile-ctx" in sys.argv:
                show["parameters"] = "num_ctx                        " + opt("--modelfile-ctx", "0") + "\ntemperature                    0.6"
            return self.json(200, show)
        if kind == "llamacpp" and self.path.endswith("/tokenize"):
            return self.json(200, {"tokens": list(range(len(req.get("content", "")) // 4))})
        if not self.path.endswith("/chat/completions"):
            self.send_response(404); self.end_headers(); return
        tokens = len(raw) // 4
        with open(log, "a") as f:
            f.write(json.dumps({"kind": kind, "bytes": len(raw), "tokens~": tokens, "messages": len(req.get("messages", [])),
                                "tools": len(req.get("tools", []) or []), "tool_choice": req.get("tool_choice"),
                                "reasoning_back": sum(1 for m in req.get("messages", []) if "reasoning_content" in m),
                                "last": str(req.get("messages", [{}])[-1].get("content"))[:300]}) + "\n")
        if "--no-tools" in sys.argv and req.get("tools"):
            return self.json(400, {"error": {"message": "registry.ollama.ai/library/fake does not support tools", "type": "api_error"}})
        if kind == "vllm" and req.get("tools"):
            return self.json(400, {"object": "error", "message": "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set", "type": "BadRequestError", "param": None, "code": 400})
        if ctx and tokens > ctx:
            if kind == "lmstudio":
                return self.json(400, {"error": f"Trying to keep the first {tokens} tokens when context the overflows. However, the model is loaded with context length of only {ctx} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"})
            if kind in ("llamacpp", "vllm"):
                return self.json(400, {"error": {"code": 400, "message": f"the request exceeds the available context size ({tokens} > {ctx})", "type": "exceed_context_size_error"}})
        kept = min(tokens, ctx) if (kind == "ollama" and ctx) else tokens  # Ollama cuts silently
        state["loaded"] = True
        r = script[min(state["n"], len(script) - 1)]
        state["n"] += 1
        self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.end_headers()
        out = ""
        if kind == "openrouter":
            out += ": OPENROUTER PROCESSING\n\n"
        out += chunk({"role": "assistant", "content": ""})
        if "reasoning" in r:
            field = "reasoning" if kind in ("vllm", "openrouter") else "reasoning_content"
            for i in range(0, len(r["reasoning"]), 7):
                out += chunk({field: r["reasoning"][i:i + 7]})
        if "error" in r:
            out += chunk({"content": "Let me"})
            out += sse({"id": "c1", "object": "chat.completion.chunk", "error": {"code": 502, "message": r["error"]},
                        "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]})
            self.wfile.write(out.encode()); return
        if "tool" in r:
            if kind == "ollama":
                out += chunk({"role": "assistant", "content": "", "tool_calls": [{"id": f"call_{state['n']}", "type": "function",
                              "function": {"name": r["tool"], "arguments": r.get("args", {})}}]})
                finish = "stop"
            else:
                a = json.dumps(r.get("args", {}))
                out += chunk({"tool_calls": [{"index": 0, "id": f"call_{state['n']}", "type": "function", "function": {"name": r["tool"], "arguments": ""}}]})
                for i in range(0, len(a), 5):
                    out += chunk({"tool_calls": [{"index": 0, "function": {"arguments": a[i:i + 5]}}]})
                finish = "tool_calls"
        else:
            text = r.get("text", r.get("raw", ""))
            for i in range(0, len(text), 3):
                out += chunk({"content": text[i:i + 3]})
            finish = "stop"
        usage = {"prompt_tokens": kept, "completion_tokens": 20, "total_tokens": kept + 20}
        if kind == "llamacpp":
            out += chunk({}, finish, usage=usage, timings={"prompt_n": kept, "prompt_ms": 10.5, "predicted_n": 20, "predicted_per_second": 50.1})
        else:
            out += chunk({}, finish)
            if kind != "ollama" or (req.get("stream_options") or {}).get("include_usage"):
                out += sse({"id": "c1", "object": "chat.completion.chunk", "choices": [], "usage": usage})
        out += "data: [DONE]\n\n"
        self.wfile.write(out.encode())


ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
