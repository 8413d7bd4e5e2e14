// Runs the page's request() (service/static/api.js) against stand-in fetches, for tests/test_page_api.py:
// what it makes of an answer whose body is cut short, aborted, or whole. Writes a JSON object
// naming, for each case, what request() returned ({value}) or threw ({error: its class, name}).
import { readFileSync } from "node:fs";

// api.js is an ES module in a folder without package.json: Node reads it from a data: URL.
const source = readFileSync(new URL("../service/static/api.js", import.meta.url), "utf8");
const api = await import("data:text/javascript;base64," + Buffer.from(source).toString("base64"));

/** A response with `status` whose body is `body()` (a promise), as fetch gives it. */
const answer = (status, body) => ({ ok: status >= 200 && status < 300, status, text: body });

/** An abort's error, as fetch raises it. */
const aborted = () => new DOMException("The operation was aborted.", "AbortError");

/** Resolved once request() reads a body: the driver aborts then, while the body comes. */
const reading = {};
reading.promise = new Promise((resolve) => {
  reading.resolve = resolve;
});

const cases = {
  // The body is still coming when a newer request aborts this one.
  aborted_in_body: (signal) =>
    answer(200, () => {
      reading.resolve();
      return new Promise((_, fail) => signal.addEventListener("abort", () => fail(aborted())));
    }),
  // The connection drops while the body comes.
  cut_in_body: () => answer(200, () => Promise.reject(new TypeError("terminated"))),
  whole: () => answer(200, () => Promise.resolve('{"scores": []}')),
  empty: () => answer(204, () => Promise.resolve("")),
  refused: () => answer(409, () => Promise.resolve('{"error": "offer_refused", "detail": "not now"}')),
};

const results = {};
for (const [name, make] of Object.entries(cases)) {
  const controller = new AbortController();
  globalThis.fetch = async (_path, options) => make(options.signal);
  const asked = api.request("POST", "/analysis", { body: {}, signal: controller.signal });
  if (name === "aborted_in_body") {
    await reading.promise;
    controller.abort();
  }
  try {
    results[name] = { value: await asked };
  } catch (error) {
    const kind = error instanceof api.Refused ? "Refused" : error instanceof api.Unreachable ? "Unreachable" : "other";
    results[name] = { error: kind, name: error.name, code: error.code ?? null, abort: api.isAbort(error) };
  }
}
process.stdout.write(JSON.stringify(results));
