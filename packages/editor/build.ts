import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const packages = dirname(root);
const engineDist = join(packages, "engine", "dist");
/** The editor users download: what `npm run build` writes and `pictor serve` serves. */
export const editorDistDir = join(root, "dist");
/** The test entry's build (the same app plus `window.__pictor`), for the end-to-end tests. */
export const editorTestDistDir = join(root, "dist-test");
/** The engine's browser bundle, which the editor page loads (built with the editor). */
export const engineBundleFile = join(engineDist, "pictor-engine.browser.js");

export interface BuildOptions {
  /** Build the test entry (testing/entry.ts, with the test bridge) into dist-test/ instead. */
  testBridge?: boolean;
  /** Another output directory (the bundle test builds into a temporary one). */
  outDir?: string;
  /** Only the editor app, not the engine bundle. */
  appOnly?: boolean;
}

/**
 * Builds what the server serves for the editor: the engine's browser bundle (esbuild, into
 * packages/engine/dist) and the editor app (Vite, into packages/editor/dist). Used by `npm run
 * build`, and by `pictor serve` at start when the bundle is missing or older than its sources
 * (`ensureEditorBuilt`). The builders are loaded only here: reading the bundle's state needs neither.
 */
export async function buildEditor(options: BuildOptions = {}): Promise<void> {
  if (!options.appOnly) await buildEngineBundle();
  const { build } = await import("vite");
  // The mode names the test entry; vite.config.ts picks the entry and dist-test/ from it.
  const { TEST_BRIDGE_MODE } = await import("./vite.config.ts");
  await build({
    configFile: join(root, "vite.config.ts"),
    root,
    mode: options.testBridge ? TEST_BRIDGE_MODE : "production",
    ...(options.outDir ? { build: { outDir: options.outDir, emptyOutDir: true } } : {}),
  });
}

/**
 * The engine bundle, built beside packages/engine/dist (at the same depth, so the source map's paths
 * hold) and moved in: a page loading the bundle while another process builds it gets the old file or
 * the new one, never half of one.
 */
async function buildEngineBundle(): Promise<void> {
  const { buildBrowserBundle } = await import("../engine/browser/build.ts");
  mkdirSync(engineDist, { recursive: true });
  const staging = mkdtempSync(join(dirname(engineDist), ".dist-build-"));
  try {
    const { bundleFile } = await buildBrowserBundle(staging);
    renameSync(`${bundleFile}.map`, `${engineBundleFile}.map`);
    renameSync(bundleFile, engineBundleFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Where a build's sources and outputs are: the bundle is stale when a source is newer than an output.
 * `writable` are the directories a build writes in; `lock` keeps builders of several processes apart.
 */
export interface BundleLayout {
  sources: readonly string[];
  outputs: readonly string[];
  writable: readonly string[];
  lock: string;
}

/** packages/editor/dist and the engine bundle, built from the editor's and the engine's sources. */
export const EDITOR_LAYOUT: BundleLayout = {
  sources: [
    join(root, "src"),
    join(root, "index.html"),
    join(root, "vite.config.ts"),
    join(root, "build.ts"),
    join(root, "package.json"),
    join(packages, "engine", "src"),
    join(packages, "engine", "browser"),
  ],
  outputs: [join(editorDistDir, "index.html"), engineBundleFile],
  writable: [root, editorDistDir, dirname(engineDist), engineDist],
  lock: join(root, ".build.lock"),
};

function newestFile(path: string): { path: string; mtimeMs: number } | null {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return null;
  if (!info.isDirectory()) return { path, mtimeMs: info.mtimeMs };
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const name of readdirSync(path)) {
    const found = newestFile(join(path, name));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

export type BundleState =
  | { state: "fresh" }
  | { state: "missing"; what: string }
  | { state: "stale"; what: string; source: string };

/** Paths as messages name them: from the repository's root for the editor's own layout. */
const repo = dirname(packages);
const shown = (path: string) => (path.startsWith(packages) ? relative(repo, path) : path);

/**
 * Whether the outputs (packages/editor/dist and the engine bundle) exist and are newer than every
 * source they are built from (by modification time).
 */
export function editorBundleState(layout: BundleLayout = EDITOR_LAYOUT): BundleState {
  const missing = layout.outputs.find((file) => !existsSync(file));
  if (missing) return { state: "missing", what: shown(missing) };
  const oldest = layout.outputs
    .map((file) => ({ file, mtimeMs: statSync(file).mtimeMs }))
    .reduce((a, b) => (b.mtimeMs < a.mtimeMs ? b : a));
  for (const source of layout.sources) {
    const newest = newestFile(source);
    if (newest && newest.mtimeMs > oldest.mtimeMs)
      return { state: "stale", what: shown(oldest.file), source: shown(newest.path) };
  }
  return { state: "fresh" };
}

/** Why this process cannot write the outputs (read-only code, another owner), or null when it can. */
export function unwritable(layout: BundleLayout = EDITOR_LAYOUT): string | null {
  for (const dir of layout.writable) {
    if (!existsSync(dir)) continue;
    try {
      // Writable when something can be made in it (access(W_OK) misses read-only mounts).
      rmSync(mkdtempSync(join(dir, ".write-check-")), { recursive: true, force: true });
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      return `${shown(dir)}: ${code ?? String(error)}`;
    }
  }
  return null;
}

export interface EnsureOptions {
  /** Another build's sources and outputs (the tests'). */
  layout?: BundleLayout;
  build?: () => Promise<void>;
  /** Why the outputs cannot be written, or null (`unwritable`). */
  canWrite?: (layout: BundleLayout) => string | null;
}

export type EnsureResult =
  | { result: "fresh" }
  | { result: "built"; because: string; ms: number }
  | { result: "unwritable"; because: string; reason: string; present: boolean }
  | { result: "failed"; because: string; reason: string; present: boolean };

function because(state: Exclude<BundleState, { state: "fresh" }>): string {
  return state.state === "missing"
    ? `${state.what} is missing`
    : `${state.what} is older than ${state.source}`;
}

/**
 * One builder at a time across processes (several servers may start together); a lock older than 5
 * minutes was left by a killed one.
 */
async function withLock<T>(lock: string, run: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    return await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * What `pictor serve` runs before it listens: builds the editor when its bundle is missing or older
 * than its sources, unless another process just did. It never throws: when the code cannot be
 * written (a read-only install) or the build fails, it says why, and the server serves the bundle it
 * has, or none. `onBuild` is told before a build starts (it takes a few seconds).
 */
export async function ensureEditorBuilt(
  onBuild: (because: string) => void = () => {},
  { layout = EDITOR_LAYOUT, build = () => buildEditor(), canWrite = unwritable }: EnsureOptions = {},
): Promise<EnsureResult> {
  const first = editorBundleState(layout);
  if (first.state === "fresh") return { result: "fresh" };
  const present = first.state === "stale";
  const denied = canWrite(layout);
  if (denied) return { result: "unwritable", because: because(first), reason: denied, present };
  try {
    return await withLock(layout.lock, async () => {
      const state = editorBundleState(layout);
      if (state.state === "fresh") return { result: "fresh" } as const;
      onBuild(because(state));
      const started = performance.now();
      await build();
      return { result: "built", because: because(state), ms: performance.now() - started } as const;
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return {
      result: "failed",
      because: because(first),
      reason,
      present: layout.outputs.every((file) => existsSync(file)),
    };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const testBridge = process.argv.includes("--test-bridge");
  await buildEditor({ testBridge });
  console.log(`editor built: ${testBridge ? editorTestDistDir : editorDistDir}`);
}
