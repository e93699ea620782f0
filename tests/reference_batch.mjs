// Runs the reference CLI (`@google/design.md`, given as argv[2]) many times in one node process.
//
// Why: node's start-up and the CLI's 800 kB bundle cost ~0.6 s a run, and the conformance tests
// make hundreds of runs. This loads the bundle once (a load hook turns its last line,
// `runMain(main);`, into an export, so nothing else in it changes) and then serves requests:
// one JSON array of CLI arguments per stdin line, one JSON line {code, stdout, stderr} back,
// with what the run wrote to stdout and stderr and the exit status a fresh process would have.
import { realpathSync } from "node:fs";
import { register } from "node:module";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const cliUrl = pathToFileURL(realpathSync(process.argv[2])).href;
const hooks = `
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (url !== ${JSON.stringify(cliUrl)}) return result;
  const source = String(result.source);
  const tail = source.lastIndexOf("runMain(main);");
  if (tail < 0) throw new Error("reference_batch: the CLI bundle no longer ends with runMain(main)");
  return { ...result, source: source.slice(0, tail) + "export { main, runMain };" + source.slice(tail + 14) };
}`;
register("data:text/javascript," + encodeURIComponent(hooks));
const { main, runMain } = await import(cliUrl);

class Exit extends Error {
  constructor(code) {
    super(`exit ${code}`);
    this.code = code;
  }
}

const out = process.stdout.write;
const err = process.stderr.write;
const exit = process.exit;

async function runOnce(args) {
  const captured = { stdout: "", stderr: "" };
  const sink = (key) => (chunk, encoding, callback) => {
    captured[key] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    if (typeof encoding === "function") encoding();
    else if (typeof callback === "function") callback();
    return true;
  };
  process.stdout.write = sink("stdout");
  process.stderr.write = sink("stderr");
  process.exit = (code) => {
    throw new Exit(code ?? process.exitCode ?? 0);
  };
  process.exitCode = undefined;
  let code;
  try {
    await runMain(main, { rawArgs: args });
    code = process.exitCode ?? 0;
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    code = error.code;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exit = exit;
    process.exitCode = 0;
  }
  // As the bytes a process would write: lone surrogates become U+FFFD, as on a real stream.
  const utf8 = (text) => Buffer.from(text, "utf8").toString("utf8");
  return { code: Number(code), stdout: utf8(captured.stdout), stderr: utf8(captured.stderr) };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const reply = await runOnce(JSON.parse(line));
  out.call(process.stdout, JSON.stringify(reply) + "\n");
}
