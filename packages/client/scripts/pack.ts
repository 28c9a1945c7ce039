// `npm run pack -w @pictor/client [-- <destination dir>]`: builds ESM + declarations and packs them as
// the published package. Inside the workspace the manifest's exports name the TypeScript sources (Node
// runs them directly); the packed manifest names dist/ instead, so this packs a staging directory
// rather than this one.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const destination = resolve(process.argv[2] ?? here);
const staging = mkdtempSync(join(tmpdir(), "pictor-client-pack-"));
try {
  const tsc = fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
  execFileSync(
    process.execPath,
    [tsc, "-p", join(here, "tsconfig.build.json"), "--outDir", join(staging, "dist")],
    {
      stdio: "inherit",
    },
  );
  const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8")) as Record<string, unknown>;
  delete pkg.scripts;
  delete pkg.devDependencies;
  pkg.exports = {
    ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
    "./api": { types: "./dist/api.d.ts", default: "./dist/api.js" },
    "./types": { types: "./dist/types.d.ts", default: "./dist/types.js" },
    "./sign-image-url": { types: "./dist/sign-image-url.d.ts", default: "./dist/sign-image-url.js" },
  };
  pkg.types = "./dist/index.d.ts";
  writeFileSync(join(staging, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  copyFileSync(join(here, "README.md"), join(staging, "README.md"));
  mkdirSync(destination, { recursive: true });
  const name = execFileSync("npm", ["pack", "--pack-destination", destination, "--silent"], {
    cwd: staging,
    encoding: "utf8",
  }).trim();
  process.stdout.write(`${join(destination, name)}\n`);
} finally {
  rmSync(staging, { recursive: true, force: true });
}
