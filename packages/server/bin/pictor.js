#!/usr/bin/env node
import { nodeVersionProblem } from "./node-version.js";

// Checked before anything else is loaded: an older Node fails on the first `.ts` import with a stack
// trace that does not say why. This one says which Node was found, which one is needed, and how to get it.
const problem = nodeVersionProblem(process.version, process.features);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import("../src/cli/main.ts");
