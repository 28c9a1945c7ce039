#!/usr/bin/env node
import module from "node:module";
import { nodeVersionProblem } from "./node-version.js";

// Checked before anything else is loaded: an older Node fails on the first `.ts` import with a stack
// trace that does not say why. This one says which Node was found, which one is needed, and how to get it.
const problem = nodeVersionProblem(process.version, process.features);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// Node's compile cache keeps each source's compiled code, and its type-stripped text, on disk (in the
// temporary directory, keyed by Node version and file contents). From the second start on, no `.ts`
// file is stripped again, so the stripper (a WebAssembly build of swc, 17 MB and more per thread) is
// never loaded. The variable carries it to the render threads, which read it when they start.
const cache = module.enableCompileCache?.();
if (cache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = cache.directory;
await import("../src/cli/main.ts");
