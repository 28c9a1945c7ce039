import type { FrameT, TemplateDocumentT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { draftSplit, partDocument, splitFor } from "../src/canvas/drag-draft.ts";
import { applyBoxes } from "../src/model/arrange.ts";
import { doc, sq } from "./support.ts";

const frameOf = (d: TemplateDocumentT) => d.frames[0] as FrameT;
const to = (id: string, x: number, y = 100) =>
  new Map([[id, { x, y, width: 100, height: 100, rotation: 0 }]]);

describe("a drag drawn in parts (canvas/drag-draft.ts)", () => {
  const four = () => doc([sq("a", 100, 100), sq("b", 100, 100), sq("c", 100, 100), sq("d", 100, 100)]);

  it("moves only the changed layers: unchanged layers and a no-op move keep their objects", () => {
    const before = four();
    expect(applyBoxes(before, 0, to("b", 100))).toBe(before);
    const after = applyBoxes(before, 0, to("b", 140));
    expect(after).not.toBe(before);
    const [a0, b0, c0] = frameOf(before).layers;
    const [a1, b1, c1] = frameOf(after).layers;
    expect([a1 === a0, b1 === b0, c1 === c0]).toEqual([true, false, true]);
    expect(draftSplit(frameOf(before), frameOf(after))).toEqual({ lo: 1, hi: 1 });
    // Two moved layers: the unchanged one between them is drawn with them.
    const both = applyBoxes(before, 0, new Map([...to("a", 10), ...to("c", 20)]));
    expect(draftSplit(frameOf(before), frameOf(both))).toEqual({ lo: 0, hi: 2 });
    expect(draftSplit(frameOf(before), frameOf(before))).toBeNull();
  });

  it("draws the frame whole when a layer's pixels depend on others' or the layers were reordered", () => {
    const blended = doc([sq("a", 0, 0), sq("b", 0, 0), { ...sq("c", 0, 0), blend_mode: "multiply" }]);
    expect(draftSplit(frameOf(blended), frameOf(applyBoxes(blended, 0, to("b", 50))))).toBeNull();
    // A blend mode below the moved layer does not see it.
    const below = doc([{ ...sq("a", 0, 0), blend_mode: "multiply" }, sq("b", 0, 0), sq("c", 0, 0)]);
    expect(draftSplit(frameOf(below), frameOf(applyBoxes(below, 0, to("b", 50))))).toEqual({ lo: 1, hi: 1 });
    const masked = doc([sq("a", 0, 0), sq("b", 0, 0), { ...sq("c", 0, 0), mask: { layer: "a" } }]);
    expect(draftSplit(frameOf(masked), frameOf(applyBoxes(masked, 0, to("b", 50))))).toBeNull();
    const d = four();
    const f = frameOf(d);
    const swapped = { ...f, layers: [f.layers[1], f.layers[0], f.layers[2], f.layers[3]] } as FrameT;
    expect(draftSplit(f, swapped)).toBeNull();
    expect(draftSplit(f, { ...f, background: "#000000", layers: [...f.layers] } as FrameT)).toBeNull();
  });

  it("knows at the press the split a drag of the selected layers will draw (drawn ahead)", () => {
    const grouped = doc([
      sq("a", 0, 0),
      { id: "g", type: "group", x: 0, y: 0, width: 300, height: 300, layers: [sq("b", 0, 0)] },
      sq("c", 0, 0),
      sq("d", 0, 0),
    ]);
    const f = frameOf(grouped);
    // A child moves its top-level group; several layers move the range between them.
    expect(splitFor(f, ["b"])).toEqual({ lo: 1, hi: 1 });
    expect(splitFor(f, ["d", "a"])).toEqual({ lo: 0, hi: 3 });
    expect(splitFor(f, ["nowhere"])).toBeNull();
    // The split a move then finds is the one drawn ahead.
    const moved = applyBoxes(grouped, 0, to("c", 140));
    expect(draftSplit(f, frameOf(moved))).toEqual(splitFor(f, ["c"]));
    const blended = doc([sq("a", 0, 0), sq("b", 0, 0), { ...sq("c", 0, 0), blend_mode: "multiply" }]);
    expect(splitFor(frameOf(blended), ["b"])).toBeNull();
    expect(splitFor(frameOf(blended), ["c"])).toBeNull();
    const animated = { ...frameOf(four()), duration: 2 } as FrameT;
    expect(splitFor(animated, ["b"])).toBeNull();
  });

  it("makes valid part documents: the bottom keeps the background, the others are transparent", () => {
    const d = {
      ...four(),
      slots: [{ name: "bg", type: "color", default: "#FF0000" }],
    } as TemplateDocumentT;
    const bound = {
      ...d,
      frames: [{ ...frameOf(d), bind: { background: "bg" } }],
    } as TemplateDocumentT;
    const layers = frameOf(bound).layers;
    const bottom = partDocument(bound, "main", layers.slice(0, 1), true);
    const top = partDocument(bound, "main", layers.slice(2), false);
    expect(validateDocument(bottom).ok).toBe(true);
    expect(validateDocument(top).ok).toBe(true);
    expect(frameOf(bottom).layers.map((l) => l.id)).toEqual(["a"]);
    expect(frameOf(bottom).bind).toEqual({ background: "bg" });
    expect(frameOf(top).layers.map((l) => l.id)).toEqual(["c", "d"]);
    expect(frameOf(top).background).toBe("#00000000");
    expect(frameOf(top).bind).toBeUndefined();
  });
});
