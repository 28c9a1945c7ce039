import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = dirname(fileURLToPath(import.meta.url));

// React's automatic JSX runtime through Vite's own transform: no plugin needed. The engine is not
// bundled here: the page loads the engine's own esbuild bundle from the server at run time, the
// same file the identity tests exercise.
export default defineConfig({
  root,
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 1000,
  },
  oxc: { jsx: { runtime: "automatic" } },
  logLevel: "warn",
});
