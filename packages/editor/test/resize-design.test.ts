import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FrameT, TemplateDocumentT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { FRAME_SIZES } from "../src/model/frame-sizes.ts";
import {
  inferredPin,
  MIN_READABLE_FONT,
  type ResizeNote,
  resizedFrameCopy,
} from "../src/model/resize-design.ts";
import { sq } from "./support.ts";

const STARTERS = join(import.meta.dirname, "../../../examples/templates");

describe("resize a design", () => {
  it("scales layers uniformly and places them by their inferred constraints, keeping bindings", () => {
    const frame = {
      name: "main",
      width: 1000,
      height: 500,
      background: "#FFFFFF",
      layers: [
        {
          ...sq("a", 450, 200),
          bind: { fill: "accent" },
          stroke: { color: "#000000", width: 4 },
          corner_radius: 10,
        },
        {
          id: "t",
          type: "text",
          x: 0,
          y: 0,
          width: 200,
          height: 100,
          text: "Hi",
          font: { family: "Inter", size: 40 },
          color: "#000000",
        },
      ],
    } as unknown as TemplateDocumentT["frames"][number];
    const out = resizedFrameCopy(frame, "square", 500, 500);
    const [a, t] = out.layers as unknown as Record<string, unknown>[];
    expect(out).toMatchObject({ name: "square", width: 500, height: 500 });
    expect(a).toMatchObject({
      x: 225,
      y: 225,
      width: 50,
      height: 50,
      corner_radius: 5,
      stroke: { width: 2 },
      bind: { fill: "accent" },
    });
    // Top-left: it keeps its (zero) margins to the left and top edges.
    expect(t).toMatchObject({ x: 0, y: 0, width: 100, height: 50, font: { size: 20 } });
  });

  it("lands the copy on whole pixels and whole font sizes; finer lengths keep one decimal", () => {
    const frame = {
      name: "main",
      width: 1000,
      height: 700,
      background: "#FFFFFF",
      layers: [
        {
          ...sq("a", 123, 457, 97),
          stroke: { color: "#000000", width: 1.5 },
          corner_radius: 7,
          shadows: [{ x: 3, y: 3, blur: 5, color: "#00000080" }],
        },
        {
          id: "t",
          type: "text",
          x: 123,
          y: 457,
          width: 511,
          height: 97,
          text: "Sale",
          font: { family: "Inter", size: 43, letter_spacing: 1.3 },
          color: "#000000",
        },
        {
          id: "g",
          type: "group",
          x: 333,
          y: 111,
          width: 301,
          height: 203,
          layers: [sq("inner", 17, 33, 91)],
        },
      ],
    } as unknown as TemplateDocumentT["frames"][number];
    // A story: scaled by 1.08, placed by 1.08 across and 2.743 down.
    const out = resizedFrameCopy(frame, "story", 1080, 1920);
    const all = (out.layers as unknown as Record<string, unknown>[]).flatMap((l) => [
      l,
      ...((l.layers as Record<string, unknown>[] | undefined) ?? []),
    ]);
    for (const l of all)
      for (const k of ["x", "y", "width", "height"])
        expect(Number.isInteger(l[k]), `${l.id}.${k}`).toBe(true);
    const [a, t] = all as Record<string, unknown>[];
    expect(a).toMatchObject({
      width: 105,
      corner_radius: 8,
      stroke: { width: 1.6 },
      shadows: [{ x: 3.2, y: 3.2, blur: 5.4 }],
    });
    expect(t).toMatchObject({ width: 552, font: { size: 46, letter_spacing: 1.4 } });
  });
});

type Box = { x: number; y: number; width: number; height: number };
const inside = (b: Box, w: number, h: number) =>
  b.x >= 0 && b.y >= 0 && b.x + b.width <= w && b.y + b.height <= h;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every layer at any depth, with its box in frame coordinates (children of groups are relative to it). */
function flat(layers: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return layers.flatMap((l) => [l, ...flat((l.layers as Record<string, unknown>[] | undefined) ?? [])]);
}

describe("smart resize: constraints", () => {
  const frame = (layers: unknown[]) =>
    ({ name: "post", width: 1000, height: 1000, background: "#FFFFFF", layers }) as unknown as FrameT;

  it("infers pins from position: both edges stretch, the centre stays centred, others keep their margin", () => {
    expect(inferredPin(0, 1000, 1000)).toBe("both");
    expect(inferredPin(100, 800, 1000)).toBe("center");
    expect(inferredPin(40, 200, 1000)).toBe("start");
    expect(inferredPin(760, 200, 1000)).toBe("end");
    const post = frame([
      sq("bg", 0, 0, 1000),
      sq("logo", 40, 40, 100),
      sq("badge", 860, 860, 100),
      { ...sq("mid", 450, 450, 100) },
      { ...sq("pinned", 40, 860, 100), constraints: { horizontal: "right", vertical: "top" } },
    ]);
    const story = resizedFrameCopy(post, "story", 1000, 1800);
    const at = (id: string) => {
      const l = story.layers.find((x) => x.id === id) as unknown as Box;
      return [l.x, l.y, l.width, l.height];
    };
    expect(at("bg")).toEqual([0, 0, 1000, 1800]);
    expect(at("logo")).toEqual([40, 40, 100, 100]);
    expect(at("badge")).toEqual([860, 1660, 100, 100]);
    expect(at("mid")).toEqual([450, 850, 100, 100]);
    // Its own constraints win over the inferred ones, and stay on the copy.
    expect(at("pinned")).toEqual([40, 860, 100, 100]);
    const wide = resizedFrameCopy(post, "wide", 2000, 1000);
    expect(wide.layers.find((l) => l.id === "pinned")).toMatchObject({ x: 1040, y: 860 });
    expect(wide.layers.find((l) => l.id === "pinned")?.constraints).toEqual({
      horizontal: "right",
      vertical: "top",
    });
    // Scale: placed and sized in proportion on its axis.
    const scaled = resizedFrameCopy(
      frame([{ ...sq("s", 100, 100, 100), constraints: { horizontal: "scale" } }]),
      "w",
      2000,
      1000,
    );
    expect(scaled.layers[0]).toMatchObject({ x: 200, width: 200, y: 100, height: 100 });
  });

  it("raises a font that would shrink below the readable minimum, and says so", () => {
    const post = frame([
      {
        id: "t",
        name: "Title",
        type: "text",
        x: 100,
        y: 100,
        width: 800,
        height: 100,
        text: "Hi",
        font: { family: "Inter", size: 30 },
        color: "#000000",
      },
    ]);
    const notes: ResizeNote[] = [];
    const ad = resizedFrameCopy(post, "ad", 300, 250, notes);
    expect((ad.layers[0] as unknown as { font: { size: number } }).font.size).toBe(MIN_READABLE_FONT);
    expect(notes).toEqual([{ layer: "Title", message: expect.stringContaining("raised to 12 px") }]);
  });

  const starters = readdirSync(STARTERS)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(STARTERS, f), "utf8")) as TemplateDocumentT);

  it("copies every starter frame to every preset without moving a layer out or a text onto another", () => {
    expect(starters.length).toBeGreaterThan(10);
    let checked = 0;
    for (const doc of starters)
      for (const source of doc.frames)
        for (const size of FRAME_SIZES) {
          const copy = resizedFrameCopy(source, size.name, size.width, size.height);
          const where = `${doc.key}/${source.name} -> ${size.name}`;
          const before = source.layers as unknown as Box[];
          const after = copy.layers as unknown as (Box & { id: string; type: string })[];
          for (const [i, l] of after.entries()) {
            const was = before[i] as Box;
            if (inside(was, source.width, source.height))
              expect(inside(l, size.width, size.height), `${where}: ${l.id} leaves the frame`).toBe(true);
            // What touched an edge of the frame still does (a full-bleed background still covers it).
            const edges = (b: Box, w: number, h: number) => [
              b.x <= 0,
              b.y <= 0,
              b.x + b.width >= w,
              b.y + b.height >= h,
            ];
            const touched = edges(was, source.width, source.height);
            const touches = edges(l, size.width, size.height);
            for (const e of [0, 1, 2, 3])
              if (touched[e]) expect(touches[e], `${where}: ${l.id} edge ${e}`).toBe(true);
            for (const [j, m] of after.entries()) {
              if (j <= i || l.type !== "text" || m.type !== "text") continue;
              if (!overlap(was, before[j] as Box))
                expect(overlap(l, m), `${where}: ${l.id} now overlaps ${m.id}`).toBe(false);
            }
          }
          for (const l of flat(after as unknown as Record<string, unknown>[])) {
            for (const k of ["x", "y", "width", "height"])
              expect(Number.isInteger(l[k]), `${where}: ${l.id}.${k} = ${l[k]}`).toBe(true);
            const font = l.font as { size?: number } | undefined;
            if (font?.size !== undefined)
              expect(Number.isInteger(font.size), `${where}: ${l.id} font`).toBe(true);
          }
          checked++;
        }
    expect(checked).toBeGreaterThanOrEqual(starters.length * FRAME_SIZES.length);
  });
});
