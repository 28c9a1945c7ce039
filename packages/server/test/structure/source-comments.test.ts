import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

/**
 * A comment says the rule itself: a reader of the sources has only the repository, so citing a
 * design document kept elsewhere, a section of it, or a tracker's issue number explains nothing.
 */
const ROOT = join(import.meta.dirname, "../../../..");
const CITATION =
  /api-decisions|spec(ification)? sections? \d|interface\.md|reliability[ -]matrix|\b[Ii]ssue #?\d+/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

it("no source comment in packages/*/src cites a document outside the repository or an issue number", () => {
  const packages = readdirSync(join(ROOT, "packages"));
  const found: string[] = [];
  for (const pkg of packages) {
    const src = join(ROOT, "packages", pkg, "src");
    if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const file of sources(src)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (CITATION.test(line)) found.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  expect(found).toEqual([]);
});
