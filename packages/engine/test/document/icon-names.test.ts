import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { ICON_NAMES, ICON_SET } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { lucideNames } from "../../../../scripts/generate-icon-names.ts";

const require = createRequire(import.meta.url);

describe("icon names", () => {
  it("equal the installed lucide-static's icons (regenerate: node scripts/generate-icon-names.ts)", async () => {
    const { version, names } = await lucideNames();
    expect(ICON_SET).toBe(`lucide-static@${version}`);
    expect(ICON_NAMES).toEqual(names);
  });

  it("ship with the icon set's licence text in packages/engine/LICENSES.md", async () => {
    const licence = await readFile(require.resolve("lucide-static/LICENSE"), "utf8");
    const ours = await readFile(new URL("../../LICENSES.md", import.meta.url), "utf8");
    expect(ours).toContain(licence.trim());
    expect(ours).toContain(ICON_SET.split("@")[1]);
  });
});
