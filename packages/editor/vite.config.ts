import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const root = dirname(fileURLToPath(import.meta.url));

/** The build mode of the test entry (testing/entry.ts: the app plus the `window.__pictor` bridge). */
export const TEST_BRIDGE_MODE = "test-bridge";

/** index.html loads testing/entry.ts instead of main.tsx: the same sources, plus the test bridge. */
const testEntry: Plugin = {
  name: "pictor-test-entry",
  transformIndexHtml: {
    order: "pre",
    handler(html) {
      const entry = 'src="/src/main.tsx"';
      if (!html.includes(entry)) throw new Error(`index.html no longer loads ${entry}`);
      return html.replace(entry, 'src="/src/testing/entry.ts"');
    },
  },
};

// React's automatic JSX runtime through Vite's own transform: no plugin needed. The engine is not
// bundled here: the page loads the engine's own esbuild bundle from the server at run time, the
// same file the identity tests exercise. `npm run build` builds dist/ (what users download); the
// end-to-end tests build the test entry into dist-test/ (build.ts, `buildEditor({ testBridge: true })`).
export default defineConfig(({ mode }) => ({
  root,
  base: "/",
  plugins: mode === TEST_BRIDGE_MODE ? [testEntry] : [],
  build: {
    outDir: mode === TEST_BRIDGE_MODE ? "dist-test" : "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 1000,
    // No report of which plugin took how long: on a busy 2-core machine every build "takes long".
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  // Production React in every build: the test entry too, whoever builds it. Vite derives React's
  // build from NODE_ENV, which vitest sets to "test": the e2e tests and bench:editor then ran React's
  // development build (several times slower to render) or the production one depending on which
  // process had built dist-test last.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  oxc: { jsx: { runtime: "automatic", development: false } },
  logLevel: "warn",
}));
