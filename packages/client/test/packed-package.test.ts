import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { accountIn, quietEnv, scratchForPictor, spawnServe } from "./support.ts";

const run = promisify(execFile);
const packScript = fileURLToPath(new URL("../scripts/pack.ts", import.meta.url));
const tsc = fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
// The oldest Node at hand runs the packed package: Debian's (20 here) when installed.
const oldNode = existsSync("/usr/bin/node") ? "/usr/bin/node" : process.execPath;

const { dir, children } = scratchForPictor("pictor-packed-");
let server: Awaited<ReturnType<typeof spawnServe>>;
let apiKey: string;
beforeAll(async () => {
  const data = await accountIn(dir, 20);
  apiKey = data.apiKey;
  server = await spawnServe(data.dir, quietEnv(), children);
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

it("npm run pack gives a package that installs, type-checks and renders, on the oldest Node here", async () => {
  const { stdout } = await run(process.execPath, [packScript, join(dir, "tarballs")]);
  const tarball = stdout.trim().split("\n").at(-1) as string;
  const app = join(dir, "app");
  const installed = join(app, "node_modules/@pictor/client");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["xzf", tarball, "-C", installed, "--strip-components=1"]);
  writeFileSync(join(app, "package.json"), JSON.stringify({ type: "module" }));

  // Types: a consumer compiled against the packed declarations, as a user's project would.
  writeFileSync(
    join(app, "consumer.ts"),
    `import { Pictor, PictorError, type RenderJob } from "@pictor/client";
import { Pictor as EdgePictor } from "@pictor/client/api";
const pictor = new Pictor({ apiKey: "sk_live_x", baseUrl: "http://127.0.0.1:1" });
const job: Promise<RenderJob> = pictor.renders.create({ template: "t", modifications: [{ name: "a", text: "b" }] });
// @ts-expect-error: scale must be a number
pictor.renders.create({ template: "t", modifications: [], scale: "2" });
export { job, EdgePictor, PictorError };
`,
  );
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        noEmit: true,
        skipLibCheck: false,
        lib: ["ES2022", "DOM"],
        types: [],
      },
      files: ["consumer.ts"],
    }),
  );
  const typecheck = await run(process.execPath, [tsc, "-p", app]).then(
    () => "",
    (e: { stdout: string }) => e.stdout,
  );
  expect(typecheck).toBe("");

  writeFileSync(
    join(app, "render.mjs"),
    `import { Pictor, verifyCallback } from "@pictor/client";
const pictor = new Pictor({ apiKey: process.env.KEY, baseUrl: process.env.URL });
const job = await pictor.renders.create({ template: "blog-og-card", modifications: [{ name: "headline", text: "Packed" }] }, { wait: true });
console.log(JSON.stringify({ status: job.status, width: job.width, verify: typeof verifyCallback, node: process.version }));
`,
  );
  const out = await run(oldNode, [join(app, "render.mjs")], {
    cwd: app,
    env: { ...process.env, KEY: apiKey, URL: server.url },
  });
  expect(JSON.parse(out.stdout)).toMatchObject({ status: "completed", width: 1200, verify: "function" });
});
