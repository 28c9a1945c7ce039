import type { TemplateDocumentT } from "@pictor/engine";
import { createEngine } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";

/** A frame of many kinds with shadows, gradients, text, a slot default (a warning) and a group. */
function scene(edit: { title: string; x: number; top: string; hideMiddle?: boolean }): TemplateDocumentT {
  const gradient = {
    type: "linear" as const,
    angle: 45,
    stops: [
      { offset: 0, color: "#2563EB" },
      { offset: 1, color: "#F43F5E" },
    ],
  };
  return {
    version: 4,
    key: "prefix",
    name: "Prefix",
    slots: [{ name: "accent", type: "color", default: "#16A34A" }],
    frames: [
      {
        name: "main",
        width: 320,
        height: 200,
        background: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#FFFFFF" },
            { offset: 1, color: "#E0E7FF" },
          ],
        },
        layers: [
          {
            id: "a",
            type: "shape",
            shape: "rectangle",
            x: 10,
            y: 10,
            width: 120,
            height: 80,
            fill: gradient,
            shadows: [{ x: 4, y: 6, blur: 10, color: "#0F172A66" }],
          },
          {
            id: "b",
            type: "shape",
            shape: "ellipse",
            x: 90,
            y: 40,
            width: 100,
            height: 100,
            fill: "#F59E0B",
            opacity: 0.7,
            bind: { fill: "accent" },
          },
          {
            id: "m",
            type: "star",
            points: 5,
            x: 150,
            y: 10,
            width: 60,
            height: 60,
            fill: gradient,
            visible: edit.hideMiddle !== true,
          },
          {
            id: "t",
            type: "text",
            x: 20,
            y: 120,
            width: 280,
            height: 60,
            text: edit.title,
            font: { family: "Inter", weight: 700, size: 28 },
            color: gradient,
            shadows: [{ x: 0, y: 2, blur: 4, color: "#00000066" }],
          },
          {
            id: "g",
            type: "group",
            x: edit.x,
            y: 20,
            width: 80,
            height: 80,
            rotation: 12,
            layers: [
              {
                id: "g1",
                type: "shape",
                shape: "rectangle",
                x: 0,
                y: 0,
                width: 60,
                height: 60,
                fill: edit.top,
                blend_mode: "multiply",
              },
            ],
          },
        ],
      },
    ],
  } as TemplateDocumentT;
}

describe("reuse of unchanged bottom layers (editor engines)", () => {
  it("draws the same bytes and warnings as a full render after each edit", async () => {
    const [canvasKit, fonts] = await Promise.all([loadCanvasKit(), loadFontSet()]);
    const plain = createEngine({ canvasKit, fonts });
    const reusing = createEngine({ canvasKit, fonts, reuseUnchangedLayers: true });
    const edits = [
      { title: "Hello", x: 220, top: "#111827" },
      { title: "Hello w", x: 220, top: "#111827" },
      { title: "Hello wo", x: 220, top: "#111827" },
      { title: "Hello wor", x: 224, top: "#111827" },
      { title: "Hello wor", x: 224, top: "#DC2626" },
      { title: "Hello wor", x: 224, top: "#DC2626", hideMiddle: true },
      { title: "Hello world", x: 224, top: "#DC2626", hideMiddle: true },
      { title: "Hello world", x: 224, top: "#DC2626" },
    ];
    for (const [i, edit] of edits.entries()) {
      for (const scale of [1, 2]) {
        const expected = plain.render(scene(edit), { frame: "main", scale });
        const bytes = Buffer.from(expected.pixels);
        const got = reusing.render(scene(edit), { frame: "main", scale });
        expect(Buffer.from(got.pixels).equals(bytes), `edit ${i} @${scale}`).toBe(true);
        expect(got.warnings).toEqual(expected.warnings);
        expect(got.opaque).toBe(expected.opaque);
        // The same edit at the other scale in between: a second render must still match.
        const again = reusing.render(scene(edit), { frame: "main", scale });
        expect(Buffer.from(again.pixels).equals(bytes), `edit ${i} @${scale} again`).toBe(true);
      }
    }
    // Typing in the title alone, at one scale (the editor's case): the bottom layers are reused.
    for (const title of ["T", "Ty", "Typ", "Typi", "Typin", "Typing"]) {
      const expected = Buffer.from(
        plain.render(scene({ title, x: 224, top: "#DC2626" }), { frame: "main" }).pixels,
      );
      const got = reusing.render(scene({ title, x: 224, top: "#DC2626" }), { frame: "main" });
      expect(Buffer.from(got.pixels).equals(expected), title).toBe(true);
      expect(got.warnings.map((w) => w.code)).toEqual(["slot_default_used"]);
    }
    // Edits alternating between three layers (several kept copies in use), then the title again.
    for (let i = 0; i < 9; i++) {
      const edit = {
        title: i % 3 === 0 ? `Typing ${i}` : "Typing",
        x: i % 3 === 1 ? 224 + i : 224,
        top: i % 3 === 2 ? "#2563EB" : "#DC2626",
      };
      const expected = plain.render(scene(edit), { frame: "main" });
      const got = reusing.render(scene(edit), { frame: "main" });
      expect(Buffer.from(got.pixels).equals(Buffer.from(expected.pixels)), `alternating ${i}`).toBe(true);
      expect(got.warnings).toEqual(expected.warnings);
    }
    // Other values: the kept pixels (drawn with the default) are not used.
    const valued = reusing.render(scene({ title: "Typing", x: 224, top: "#DC2626" }), {
      frame: "main",
      values: { accent: "#000000" },
    });
    const valuedPlain = plain.render(scene({ title: "Typing", x: 224, top: "#DC2626" }), {
      frame: "main",
      values: { accent: "#000000" },
    });
    expect(Buffer.from(valued.pixels).equals(Buffer.from(valuedPlain.pixels))).toBe(true);
    plain.dispose();
    reusing.dispose();
  });
});

describe("reuse of unchanged bottom layers on a dense document v2 frame", () => {
  it("matches a full render after random edits of a 60-layer v2 frame", async () => {
    const { sixtyLayerTemplate } = await import("../../../../bench/lib/editor-templates.ts");
    const [canvasKit, fonts] = await Promise.all([loadCanvasKit(), loadFontSet()]);
    const plain = createEngine({ canvasKit, fonts });
    const reusing = createEngine({ canvasKit, fonts, reuseUnchangedLayers: true });
    const doc = sixtyLayerTemplate("ast_none") as unknown as TemplateDocumentT;
    const layers = doc.frames[0]?.layers as unknown as Record<string, unknown>[];
    // A fixed pseudo-random sequence (the same edits on every run).
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 40; i++) {
      const layer = layers[Math.floor(random() * layers.length)] as Record<string, unknown>;
      const edit = Math.floor(random() * 5);
      if (edit === 0) layer.x = (layer.x as number) + Math.round(random() * 40 - 20);
      else if (edit === 1) layer.y = (layer.y as number) + Math.round(random() * 20 - 10);
      else if (edit === 2) layer.rotation = Math.round(random() * 60 - 30);
      else if (edit === 3 && layer.type === "text") layer.text = `Edited ${i} with more words`;
      else if (edit === 3 || edit === 4) layer.opacity = Math.round(random() * 10) / 10 || 0.5;
      const scale = i < 30 ? 1 : 2;
      const expected = Buffer.from(plain.render(doc, { frame: "main", scale }).pixels);
      const got = reusing.render(doc, { frame: "main", scale });
      expect(Buffer.from(got.pixels).equals(expected), `edit ${i} (${edit} on ${layer.id as string})`).toBe(
        true,
      );
    }
    plain.dispose();
    reusing.dispose();
  }, 120_000);
});
