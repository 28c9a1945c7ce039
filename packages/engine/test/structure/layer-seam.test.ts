import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Layer, LayerOfType, QrLayerT, TextLayerT } from "../../src/document/schema.ts";
import { layerTypes } from "../../src/document/schema.ts";

/**
 * A layer type lives in files named after it (its document half and its painter) plus one entry in
 * each registry, so adding one touches nothing else in the engine. These kinds' names are distinctive
 * enough to find: quoted anywhere else, something outside the seam knows about the type.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const DISTINCTIVE = ["barcode", "qr", "rating", "progress", "chart"];
const REGISTRIES = ["document/layers/registry.ts", "render/painters/registry.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `qr.ts`, `qr-matrix.ts`: a file named after the type. */
const namedAfter = (file: string, type: string) => new RegExp(`^${type}[.-]`).test(basename(file));

/** `file:line` of every quoted occurrence of `type` in the engine's sources. */
function quotedIn(type: string): string[] {
  const quoted = new RegExp(`["'\`]${type}["'\`]`);
  return sourceFiles(SRC).flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (quoted.test(line) ? [`${relative(SRC, file)}:${i + 1}`] : [])),
  );
}

describe("the layer seam", () => {
  it.each(DISTINCTIVE)('"%s" is quoted only in files named after it and in the registries', (type) => {
    const places = quotedIn(type);
    expect(places.some((place) => place.startsWith(`document/layers/${type}.ts:`))).toBe(true);
    const outside = places.filter((place) => {
      const file = place.slice(0, place.lastIndexOf(":"));
      return !namedAfter(file, type) && !REGISTRIES.includes(file);
    });
    expect(outside).toEqual([]);
  });

  it.each(layerTypes())("%s has its document half and its painter, each in a file named after it", (type) => {
    expect(existsSync(join(SRC, "document/layers", `${type}.ts`))).toBe(true);
    expect(existsSync(join(SRC, "render/painters", `${type}.ts`))).toBe(true);
  });

  it("derives the Layer union from the registry's table", () => {
    expectTypeOf<Layer>().not.toBeAny();
    expectTypeOf<LayerOfType<"qr">>().toEqualTypeOf<QrLayerT>();
    expectTypeOf<LayerOfType<"text">>().toEqualTypeOf<TextLayerT>();
    expectTypeOf<TextLayerT>().toExtend<Layer>();
  });
});
