// Checks regular expressions for super-linear backtracking with recheck, all in one node process.
//
// Reads one JSON array of [source, flags] pairs on stdin (JavaScript syntax; tests/regex_audit.py
// writes Python's patterns that way) and prints one JSON array of verdicts back, in the same order:
// {status, checker, complexity, attack}. The fuzzer's seed is fixed and its limits are steps, so two runs agree.
const { readFileSync } = require("node:fs");
const { checkSync } = require("recheck");

const input = readFileSync(0, "utf8");
const verdicts = JSON.parse(input).map(([source, flags]) => {
  // every limit counted in steps, none in time, so a busy machine gets the same verdicts
  const result = checkSync(source, flags, {
    randomSeed: 7,
    timeout: null,
    attackTimeout: null,
    incubationTimeout: null,
    attackLimit: 20_000_000, // a linear pattern reads a few times the longest attack string (300,000)
  });
  return {
    status: result.status,
    checker: result.checker ?? null,
    complexity: result.complexity?.summary ?? null,
    attack: result.attack?.pattern ?? null,
    error: result.error ? String(result.error.kind ?? result.error.message ?? result.error) : null,
  };
});
process.stdout.write(JSON.stringify(verdicts));
