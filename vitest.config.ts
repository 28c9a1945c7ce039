import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One project per package so `vitest run --project engine` runs a package alone. Tests that start
// servers or browsers do it themselves on loopback, on a free port.
const project = (name: string, extra: Record<string, unknown> = {}) => ({
  test: {
    name,
    include: [`packages/${name}/test/**/*.test.ts`],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...extra,
  },
});

// The API suite again, unchanged, on PostgreSQL + S3 (one throwaway cluster and one Swift per run, see
// packages/server/test/api-pg/). Test files that read SQLite internals stay on the embedded project only:
// assets/query.test.ts (the SQLite query planner) and callbacks/{crash,stores}.test.ts (open the data dir).
const API_SUITE = [
  "api/*.test.ts",
  "batch/*.test.ts",
  "callbacks/callbacks.test.ts",
  "callbacks/ssrf.test.ts",
  "assets/library.test.ts",
  "assets/folder-slots.test.ts",
  "assets/fonts.test.ts",
  // File routes: streaming, byte ranges and download limits, from files and from S3.
  "assets/downloads.test.ts",
  // The per-account storage quota on uploads and imports.
  "assets/storage-quota.test.ts",
  "image-urls/image-urls.test.ts",
  // Issue 21: one account's flood does not starve others, on the pg-boss queue as on the embedded one.
  "queue/flood-fairness.test.ts",
  // The admin commands (accounts, credits, keys, templates) on the database serve uses.
  "cli/admin-backends.test.ts",
  // pictor migrate and --check against a database a migration behind and one ahead.
  "cli/migrate.test.ts",
].map((p) => `packages/server/test/${p}`);
const pgS3Installed =
  existsSync("/usr/lib/postgresql") &&
  existsSync("/usr/lib/python3/dist-packages/swift/common/middleware/s3api");
const serverPg = {
  test: {
    name: "server-pg",
    include: API_SUITE,
    env: { PICTOR_TEST_BACKEND: "postgres-s3" },
    globalSetup: ["packages/server/test/api-pg/global-setup.ts"],
    setupFiles: ["packages/server/test/support/test-process-end.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
};
// Under CI a missing service is a broken setup: the project runs and its global setup fails.
if (!pgS3Installed && process.env.CI !== "true") {
  console.warn(
    "[skipped] server-pg (the API suite on PostgreSQL + S3: test/api, test/batch, test/callbacks, test/assets): PostgreSQL or OpenStack Swift (python3-swift) not installed; run scripts/ci-services.sh to enable it",
  );
}

// Test files of these packages share their worker's modules (isolate: false): their code keeps no state
// a test could leave behind (the engine is pure; no test mocks a module or changes a global it does not
// restore), and loading CanvasKit, the fonts and the module graph once per worker instead of once per
// file took the engine project from about 105 to 22 s of CPU.
const shared = { isolate: false };

export default defineConfig({
  test: {
    // One test file per core. Vitest's default leaves a core free (on 2 cores: one file at a time), but
    // most files here wait on what they start (servers, browsers, PostgreSQL, Swift, child processes):
    // one file at a time kept about one core busy, and a full run took 1,185 s on 2 cores.
    maxWorkers: availableParallelism(),
    projects: [
      project("engine", shared),
      project("fonts", shared),
      project("render-node"),
      // A server test process that ends before its file has finished says how (exit code or signal).
      project("server", { setupFiles: ["packages/server/test/support/test-process-end.ts"] }),
      project("client"),
      // The n8n nodes, through n8n-workflow's interfaces against a real Pictor server (test/harness.ts).
      project("n8n-nodes-pictor"),
      // The editor's own modules in Node (document model, store, layer table); its browser tests, which
      // need a server, are in packages/server/test/editor. TSX compiles as the editor's Vite build does.
      { ...project("editor", shared), oxc: { jsx: { runtime: "automatic" } } },
      ...(pgS3Installed || process.env.CI === "true" ? [serverPg] : []),
    ],
  },
});
