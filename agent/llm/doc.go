// Package llm is pincer's model client: it sends the conversation to an
// OpenAI-compatible server and streams the answer back as events. The
// agent sees it through one small interface of its own (agent.Model) and
// the plain types here (Request, Reply, the events); nothing of the
// libraries below leaves this package.
//
// langchaingo's llms/openai builds the requests and reads the answers
// (model.go). Its stream handling is not trusted: measured on v0.1.14, it
// mis-merges tool-call fragments interleaved by index, drops calls whose
// first fragment has no type, makes empty calls of trailing empty
// fragments, and reports success on a stream cut before its end. So the
// client's own http.RoundTripper (transport.go) sits under it and:
//
//   - parses the server's stream itself (sse.go), merges the fragments
//     (normalize.go, text.go: by index, else by id; characters split across
//     chunks joined), sends the live events, and hands langchaingo a
//     normalised stream with complete, well-formed tool calls;
//   - turns a stream that ends early, or an error inside it, into an error;
//   - retries failures before the first byte with backoff that honours
//     Retry-After, limits the wait for the first byte and the silence
//     within an answer, and bounds what one answer may hold;
//   - keeps the API key and any credential in the base URL out of every
//     error and notice.
//
// Open models served without their server's parsers put into the answer's
// text what belongs elsewhere; the client takes it out (shape.go):
// thinking (think.go) goes to the reasoning, and an answer that is only a
// tool-call block in one of the formats open models write (textcalls.go)
// becomes calls, marked FromText. It also asks the server how big the
// model's window is (window.go) and, where offered, counts tokens with the
// model's own tokenizer (tokenize.go).
//
// The recorded streams under testdata/streams hold the shapes real servers
// send; the tests replay each one whole and cut into pieces.
package llm
