import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, resolve } from "node:path";
import { FALLBACK_FAMILIES, FONT_COMPANIONS, publicFontFiles } from "@pictor/fonts";
import { Type as T } from "@sinclair/typebox";
import type { App } from "./app-types.ts";
import { notFound } from "./failure.ts";

const require = createRequire(import.meta.url);

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ttf": "font/ttf",
  ".json": "application/json; charset=utf-8",
};

/** @pictor/engine exports only its src/index.ts; the package root is one level up. */
function engineDir(): string {
  return dirname(dirname(require.resolve("@pictor/engine")));
}

export interface EditorFiles {
  /** The built editor (Vite output): index.html + assets/. */
  distDir: string;
  /** The engine's browser bundle (esbuild). */
  engineBundle: string;
  /** The canvaskit.wasm Node loads too: one binary for both sides. */
  wasmFile: string;
}

/**
 * Where the editor's files are. `PICTOR_EDITOR_DIR` names another build of the editor to serve
 * instead of packages/editor/dist: the end-to-end tests serve the test entry's (dist-test, the same
 * app plus the `window.__pictor` bridge they read), which the production build leaves out.
 */
export function editorFiles(env: NodeJS.ProcessEnv = process.env): EditorFiles {
  return {
    distDir: env.PICTOR_EDITOR_DIR
      ? resolve(env.PICTOR_EDITOR_DIR)
      : join(dirname(require.resolve("@pictor/editor/package.json")), "dist"),
    engineBundle: join(engineDir(), "dist", "pictor-engine.browser.js"),
    wasmFile: join(dirname(require.resolve("canvaskit-wasm")), "canvaskit.wasm"),
  };
}

/**
 * What `pictor serve` does before it listens (the editor is never built on a request): builds the
 * editor when its bundle is missing or older than its sources (`ensureEditorBuilt` of
 * @pictor/editor), and says on `say` what it did, or why it could not: code this process cannot
 * write (a read-only install), a failed build. The server then serves the bundle it has, or none (`/`
 * answers 503 with a page saying what to run). A build named by PICTOR_EDITOR_DIR is served as it is.
 */
export async function prepareEditor(
  say: (line: string) => void,
  files: EditorFiles = editorFiles(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (env.PICTOR_EDITOR_DIR) {
    if (!existsSync(join(files.distDir, "index.html")))
      say(`pictor: PICTOR_EDITOR_DIR ${files.distDir} holds no built editor (index.html): / answers 503`);
    return;
  }
  const { ensureEditorBuilt } = await import("@pictor/editor");
  const outcome = await ensureEditorBuilt((because) => say(`pictor: building the editor (${because})…`));
  const rebuild = "Run `npm run build` where the code is writable, then start again.";
  switch (outcome.result) {
    case "fresh":
      return;
    case "built":
      say(`pictor: editor built in ${(outcome.ms / 1000).toFixed(1)} s`);
      return;
    case "unwritable":
      say(
        outcome.present
          ? `pictor: the editor bundle is out of date (${outcome.because}) and this process cannot write it (${outcome.reason}): serving the one built before. ${rebuild}`
          : `pictor: the editor is not built (${outcome.because}) and this process cannot write it (${outcome.reason}): serving the API without the editor (/ says so). ${rebuild}`,
      );
      return;
    case "failed":
      say(
        outcome.present
          ? `pictor: the editor could not be built (${outcome.reason}): serving the one built before.`
          : `pictor: the editor could not be built (${outcome.reason}): serving the API without the editor (/ says so).`,
      );
  }
}

/** `/` of a server without an editor bundle: what happened and what to run. */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Pictor: the editor is not built</title>
  </head>
  <body>
    <h1>The editor is not built</h1>
    <p>
      This server has no editor bundle, and could not build one when it started (its log says why).
      The API works: its reference is at <a href="/docs">/docs</a>.
    </p>
    <p>Run <code>npm run build</code> where the code is writable, then start <code>pictor serve</code> again.</p>
  </body>
</html>
`;

async function sendFile(
  reply: import("fastify").FastifyReply,
  file: string,
  cacheControl: string,
): Promise<unknown> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw notFound("file");
  reply.header("Content-Type", CONTENT_TYPES[extname(file)] ?? "application/octet-stream");
  reply.header("Cache-Control", cacheControl);
  reply.header("X-Content-Type-Options", "nosniff");
  return reply.send(await readFile(file));
}

// Public, not rate limited: static files cost one read and a page load fetches about 60 of them.
const STATIC = { public: true, rateLimit: false } as const;
const NO_CACHE = "no-cache";

/**
 * The page holds an API key: scripts only from this server, no inline script, no framing. The
 * engine needs 'unsafe-eval' (TypeBox compiles the document validators with `new Function`, the
 * same code the API validates with) and 'wasm-unsafe-eval' (canvaskit). Images may come from
 * elsewhere (output links on an object store).
 */
const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src * data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The browser editor and what it loads: the Vite build at `/`, the engine bundle and canvaskit.wasm
 * under `/editor/engine/`, the shipped font files under `/editor/fonts/` with their manifest. Nothing
 * comes from a CDN.
 */
export function registerStaticEditor(app: App, files: EditorFiles = editorFiles()): void {
  const fonts = publicFontFiles("/editor/fonts/");
  const fontByName = new Map(
    fonts.map((f) => [decodeURIComponent(f.urlPath.slice("/editor/fonts/".length)), f]),
  );
  const hide = { hide: true } as const;

  app.get("/", { config: STATIC, schema: hide }, async (_request, reply) => {
    reply.header("Content-Security-Policy", EDITOR_CSP);
    reply.header("X-Frame-Options", "DENY");
    const page = join(files.distDir, "index.html");
    if (!existsSync(page)) {
      reply.code(503).header("Content-Type", CONTENT_TYPES[".html"]).header("Cache-Control", NO_CACHE);
      return reply.send(NOT_BUILT_PAGE);
    }
    return sendFile(reply, page, NO_CACHE);
  });

  app.get(
    "/assets/:file",
    { config: STATIC, schema: { ...hide, params: T.Object({ file: T.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const assets = resolve(files.distDir, "assets");
      const file = resolve(assets, request.params.file);
      if (dirname(file) !== assets) throw notFound("file");
      // Vite names assets by content hash: safe to cache forever.
      return sendFile(reply, file, "public, max-age=31536000, immutable");
    },
  );

  app.get("/editor/engine/pictor-engine.browser.js", { config: STATIC, schema: hide }, async (_r, reply) =>
    sendFile(reply, files.engineBundle, NO_CACHE),
  );

  app.get("/editor/engine/canvaskit.wasm", { config: STATIC, schema: hide }, async (_r, reply) =>
    sendFile(reply, files.wasmFile, "public, max-age=86400"),
  );

  app.get("/editor/fonts.json", { config: STATIC, schema: hide }, async (_r, reply) => {
    reply.header("Cache-Control", NO_CACHE);
    return {
      faces: fonts.map(({ family, category, weight, style, urlPath }) => ({
        family,
        category,
        weight,
        style,
        url: urlPath,
      })),
      fallback: [...FALLBACK_FAMILIES],
      companions: FONT_COMPANIONS,
    };
  });

  app.get(
    "/editor/fonts/:file",
    { config: STATIC, schema: { ...hide, params: T.Object({ file: T.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const face = fontByName.get(request.params.file);
      if (!face) throw notFound("font");
      return sendFile(reply, face.file, "public, max-age=86400");
    },
  );
}
