import { EngineError, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { richTextsDocument, violetToPink } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "text-rich";

const richDocument = () => {
  const doc = richTextsDocument(
    [
      { id: "runs", y: 8, height: 100, font: { family: "Inter", size: 26 } },
      {
        id: "styled",
        y: 112,
        height: 60,
        font: { family: "Inter", weight: 700, size: 40 },
        color: violetToPink(),
        stroke: { width: 2, color: "#111827" },
      },
      {
        id: "cased",
        y: 176,
        height: 40,
        font: { family: "Lora", size: 26 },
        transform: "title",
        highlight: { color: "#FDE68A", padding: 3 },
      },
      { id: "cut", y: 224, height: 64, font: { family: "Inter", size: 24 } },
    ],
    { height: 296, background: "#F8FAFC" },
  );
  expect(validateDocument(doc).ok).toBe(true);
  return doc;
};

const values = {
  runs: 'Plain, <b>bold</b>, <i>italic</i>, <b><i>both</i></b>,<br><u>underlined</u>, <s>struck</s> and <color value="#E11D48">red <b>bold</b></color> &lt;3',
  styled: 'Big <color value="#F59E0B">SALE</color> today',
  cased: "the <b>quick</b> bro<i>wn</i> fox",
  cut: "First line<br><b>second</b> line<br>third line is cut",
};

describe("rich text", () => {
  it("draws bold, italic, underline, strike and colour runs, over gradients, outlines, case and cuts", async () => {
    await expectGolden(FEATURE, "runs", richDocument(), { values });
    await expectGolden(FEATURE, "runs-scale-2", richDocument(), { values, scale: 2 });
  });

  it("reports the cut and draws plain text for slots that are not rich", async () => {
    const engine = await testEngine();
    const result = engine.render(richDocument(), { values });
    expect(result.warnings.map((w) => [w.code, w.layer])).toEqual([["text_truncated", "cut"]]);
    const rich = Buffer.from(result.pixels); // the engine reuses its pixel buffer
    const plainDoc = richDocument();
    for (const slot of plainDoc.slots) if (slot.type === "text") slot.rich = false;
    const plain = engine.render(plainDoc, { values });
    expect(Buffer.compare(Buffer.from(plain.pixels), rich)).not.toBe(0);
  });

  it("refuses markup that does not parse when the engine is called directly", async () => {
    const engine = await testEngine();
    expect(() => engine.render(richDocument(), { values: { runs: "<b>open" } })).toThrow(EngineError);
    expect(() => engine.render(richDocument(), { values: { runs: "<b>open" } })).toThrow(
      "values.runs: has malformed markup at character 1: <b> is never closed (add </b>)",
    );
  });
});
