import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// What n8n loads: the files package.json's "n8n" section lists, built to CommonJS in dist/ with
// @pictor/client bundled in (a community node package has no runtime dependencies), each icon beside.
const root = fileURLToPath(new URL("../", import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  dependencies?: Record<string, string>;
  n8n: { credentials: string[]; nodes: string[] };
};

it("builds to the CommonJS files its n8n section lists, which require() with no runtime dependency", () => {
  expect(manifest.dependencies ?? {}).toEqual({});
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "pipe" });
  const require = createRequire(`${root}dist/`);
  for (const file of [...manifest.n8n.credentials, ...manifest.n8n.nodes]) {
    const exported = require(`${root}${file}`) as Record<string, new () => Record<string, unknown>>;
    const [name, Class] = Object.entries(exported)[0] ?? [];
    expect(file.endsWith(`${name}.credentials.js`) || file.endsWith(`${name}.node.js`), file).toBe(true);
    const instance = new (
      Class as new () => {
        description?: { icon: { light: string; dark: string } };
        icon?: { light: string; dark: string };
      }
    )();
    const icon = instance.description?.icon ?? instance.icon;
    for (const variant of [icon?.light, icon?.dark]) {
      expect(variant, file).toMatch(/^file:/);
      expect(
        existsSync(`${root}${file.replace(/[^/]+$/, "")}${variant?.slice("file:".length)}`),
        variant,
      ).toBe(true);
    }
  }
  // The trigger's verifier is bundled, not required at run time.
  expect(readFileSync(`${root}dist/nodes/PictorTrigger/PictorTrigger.node.js`, "utf8")).not.toMatch(
    /require\("@pictor\/client"\)/,
  );
});
