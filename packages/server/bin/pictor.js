#!/usr/bin/env node
import module from "node:module";
import { join } from "node:path";
import { describeSettings, LAUNCHED, missingLaunchSettings } from "./launch-settings.js";
import { nodeVersionProblem } from "./node-version.js";

// Checked before anything else is loaded: an older Node fails on the first `.ts` import with a stack
// trace that does not say why. This one says which Node was found, which one is needed, and how to get it.
const problem = nodeVersionProblem(process.version, process.features);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// `pictor serve` not started through bin/pictor.sh (`npx pictor serve`) lacks the memory settings Node
// and glibc read only at start: it replaces itself (same process id, so stdin, stdout, signals and
// the exit code stay the caller's) with node started again with them, once (the marker says so).
const missing = missingLaunchSettings(process.argv.slice(2), process.env, process.execArgv);
if (missing) {
  const args = [process.execPath, ...process.execArgv, ...missing.flags, ...process.argv.slice(1)];
  const env = { ...process.env, ...missing.env, [LAUNCHED]: "1" };
  let why =
    "this Node cannot replace its process (process.execve: Node 22.15 or 23.11 and later, not on Windows)";
  if (typeof process.execve === "function") {
    try {
      process.execve(process.execPath, args, env);
    } catch (error) {
      why = `starting node again failed (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  const launcher = join(import.meta.dirname ?? ".", "pictor.sh");
  process.stderr.write(
    `pictor: serving without the memory settings Node and glibc read at start (${describeSettings(missing)}): ${why}. Start it with \`npm start\` or \`sh ${launcher} serve\` to apply them.\n`,
  );
}
// Node's compile cache keeps each source's compiled code, and its type-stripped text, on disk (in the
// temporary directory, keyed by Node version and file contents). From the second start on, no `.ts`
// file is stripped again, so the stripper (a WebAssembly build of swc, 17 MB and more per thread) is
// never loaded. The variable carries it to the render threads, which read it when they start.
const cache = module.enableCompileCache?.();
if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
await import("../src/cli/main.ts");
