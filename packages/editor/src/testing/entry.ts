import { mount } from "../app/mount.tsx";
import { installTestHook } from "./test-hook.ts";

// The test entry: the production app (app/mount.tsx) plus `window.__pictor`, which the identity tests
// and bench/editor.bench.ts read. Built by `buildEditor({ testBridge: true })` into dist-test/ and
// served by `pictor serve` only when PICTOR_EDITOR_DIR names that directory (the e2e harness does).
installTestHook();
mount();
