import type { TemplateDocumentT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { MAX_PALETTE_COLORS } from "../../src/document/schema.ts";
import { validateDocument } from "../../src/document/validate.ts";
import { rectanglesDocument } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";
import { validDocument } from "./helpers.ts";

const PALETTE = ["#FF0066", "#0F172A", "#38BDF880"];

function errorsOf(palette: unknown): { path: string; message: string }[] {
  const result = validateDocument({ ...validDocument(), palette });
  if (result.ok) throw new Error("expected the document to be invalid");
  return result.errors;
}

describe("document palette: the designer's brand colours, never drawn", () => {
  it("is optional, and a document with one validates and is returned untouched", () => {
    const doc = { ...validDocument(), palette: [...PALETTE, "#abcdef"] };
    const before = JSON.stringify(doc);
    const result = validateDocument(doc);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document).toBe(doc);
    expect(JSON.stringify(doc)).toBe(before);
    expect(validateDocument({ ...validDocument(), palette: [] }).ok).toBe(true);
    expect(validateDocument(validDocument()).ok).toBe(true);
  });

  it("is kept when a v1 document is migrated", () => {
    const result = validateDocument({ ...validDocument(), version: 1, palette: PALETTE });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document.palette).toEqual(PALETTE);
  });

  it.each([
    ["#FFF", "palette[1]", 'must be a colour in the form "#RRGGBB" or "#RRGGBBAA"'],
    ["red", "palette[1]", 'must be a colour in the form "#RRGGBB" or "#RRGGBBAA"'],
    [42, "palette[1]", "must be a string"],
  ])("names the bad colour %j by its JSON path", (bad, path, message) => {
    expect(errorsOf(["#FF0066", bad, "#000000"])).toEqual([{ path, message }]);
  });

  it("must be an array of at most MAX_PALETTE_COLORS colours, each listed once", () => {
    expect(errorsOf("#FF0066")).toEqual([{ path: "palette", message: "must be an array" }]);
    const many = Array.from(
      { length: MAX_PALETTE_COLORS + 1 },
      (_, i) => `#${i.toString(16).padStart(6, "0")}`,
    );
    expect(errorsOf(many)).toEqual([
      { path: "palette", message: `must have at most ${MAX_PALETTE_COLORS} items` },
    ]);
    expect(errorsOf(["#FF0066", "#000000", "#ff0066"])).toEqual([
      { path: "palette[2]", message: 'duplicate palette colour "#ff0066" (first at palette[0])' },
    ]);
  });

  it("changes nothing drawn: the same bytes with and without it", async () => {
    const engine = await testEngine();
    const plain = validDocument() as unknown as TemplateDocumentT;
    const withPalette = { ...plain, palette: PALETTE };
    expect(validateDocument(withPalette).ok).toBe(true);
    const values = { headline: "Brand colours" };
    const a = engine.render(plain, { values });
    const without = { ...a, pixels: a.pixels.slice() };
    const b = engine.render(withPalette, { values });
    expect([b.width, b.height, b.opaque, b.warnings]).toEqual([
      without.width,
      without.height,
      without.opaque,
      without.warnings,
    ]);
    expect(Buffer.compare(Buffer.from(b.pixels), Buffer.from(without.pixels))).toBe(0);
    // And byte for byte the committed golden of the same design without a palette.
    await expectGolden("layer-shape", "rectangles", { ...rectanglesDocument(), palette: PALETTE });
  });
});
