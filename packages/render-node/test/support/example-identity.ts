// One suite for the document-migration identity tests: each fixture holds the SHA-256 of what an old
// engine drew for the examples of its day, and today's engine must draw the very same bytes after
// migrating each example to the current version.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CURRENT_VERSION, createEngine, type PreparedImage, validateDocument } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../../src/canvaskit.ts";
import { loadIconSet } from "../../src/icons.ts";
import { prepareImage } from "../../src/prepare-image.ts";

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));
const templatesDir = join(repoRoot, "examples/templates");

export interface ExampleIdentitySuite {
  /** File name under test/fixtures, as written by scripts/v<N>-example-renders.ts. */
  readonly fixture: string;
  readonly title: string;
  readonly coverageTitle: string;
  /** The fewest example templates the fixture must cover. */
  readonly minTemplates: number;
  /** Checks the version an example is written in, before migration. */
  readonly expectSourceVersion: (version: unknown) => void;
}

export function describeExampleIdentity(suite: ExampleIdentitySuite): void {
  const fixture = JSON.parse(
    readFileSync(new URL(`../fixtures/${suite.fixture}`, import.meta.url), "utf8"),
  ) as { renders: Record<string, string> };

  const cases = Object.entries(fixture.renders).map(([name, sha256]) => {
    const [file = "", rest = ""] = name.split("#");
    const [frame = "", scale = "1"] = rest.split("@");
    return { name, file: `${file}.json`, frame, scale: Number(scale), sha256 };
  });

  const engine = (async () =>
    createEngine({
      canvasKit: await loadCanvasKit(),
      fonts: await loadFontSet(),
      icons: await loadIconSet(),
    }))();

  describe(suite.title, () => {
    it(suite.coverageTitle, () => {
      const files = new Set(cases.map((c) => c.file));
      expect(files.size).toBeGreaterThanOrEqual(suite.minTemplates);
    });

    it.each(cases)("$name", async ({ file, frame, scale, sha256 }) => {
      const raw = JSON.parse(readFileSync(join(templatesDir, file), "utf8"));
      suite.expectSourceVersion(raw.version);
      const checked = validateDocument(raw);
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      expect(checked.document.version).toBe(CURRENT_VERSION);
      const document = checked.document;
      const ready = await engine;
      const options = { frame, values: document.sample ?? {}, scale };
      const images = new Map<string, PreparedImage>();
      for (const request of ready.planImages(document, options)) {
        const bytes = new Uint8Array(await readFile(resolve(templatesDir, request.src)));
        images.set(request.key, await prepareImage(bytes, request));
      }
      const result = ready.render(document, { ...options, images });
      expect(createHash("sha256").update(result.pixels).digest("hex")).toBe(sha256);
    });
  });
}
