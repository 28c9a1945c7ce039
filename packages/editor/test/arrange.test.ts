import type { TemplateDocumentT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  alignLayers,
  distributeLayers,
  groupLayers,
  layersInMarquee,
  placeInParent,
  reorderLayers,
  rotateBoxes,
  scaleBoxes,
  translateLayers,
  ungroupLayer,
} from "../src/model/arrange.ts";
import { selectLayers, toggleInSelection } from "../src/model/selection.ts";
import { boxes, doc, sq } from "./support.ts";

describe("editor arrangement (pure)", () => {
  const three = () => doc([sq("a", 100, 100), sq("b", 250, 300), sq("c", 700, 450)]);

  it("aligns to the selection's bounds or to the frame", () => {
    expect(boxes(alignLayers(three(), 0, ["a", "b", "c"], "left", false)).map((b) => b[1])).toEqual([
      100, 100, 100,
    ]);
    expect(boxes(alignLayers(three(), 0, ["a", "b", "c"], "bottom", false)).map((b) => b[2])).toEqual([
      450, 450, 450,
    ]);
    expect(boxes(alignLayers(three(), 0, ["a", "b", "c"], "center", false)).map((b) => b[1])).toEqual([
      400, 400, 400,
    ]);
    expect(boxes(alignLayers(three(), 0, ["a", "b", "c"], "middle", true)).map((b) => b[2])).toEqual([
      250, 250, 250,
    ]);
    // One layer aligns to the frame.
    expect(boxes(alignLayers(three(), 0, ["c"], "right", false))[2]?.[1]).toBe(900);
  });

  it("distributes with equal gaps between the outer layers, or across the frame", () => {
    expect(boxes(distributeLayers(three(), 0, ["a", "b", "c"], "x", false)).map((b) => b[1])).toEqual([
      100, 400, 700,
    ]);
    expect(boxes(distributeLayers(three(), 0, ["a", "b", "c"], "y", false)).map((b) => b[2])).toEqual([
      100, 275, 450,
    ]);
    // In the frame: (1000 - 300) / 4 = 175 between and at both margins.
    expect(boxes(distributeLayers(three(), 0, ["a", "b", "c"], "x", true)).map((b) => b[1])).toEqual([
      175, 450, 725,
    ]);
  });

  it("moves layers by whole pixels when distributing or aligning, whatever the gaps come to", () => {
    // Gaps of (990 - 10 - 281) / 2 = 349.5: the middle layer lands on a whole pixel.
    const odd = doc([sq("a", 10, 0, 101), sq("b", 300, 200, 77), sq("c", 887, 300, 103)]);
    const xs = boxes(distributeLayers(odd, 0, ["a", "b", "c"], "x", false)).map((b) => b[1]);
    expect(xs[0]).toBe(10);
    expect(xs[2]).toBe(887);
    expect(Number.isInteger(xs[1])).toBe(true);
    expect(Math.abs((xs[1] as number) - 460.5)).toBe(0.5);
    // Centres of an odd and an even width: the odd one would be half a pixel off.
    const centred = boxes(alignLayers(odd, 0, ["a", "b"], "center", false)).map((b) => b[1]);
    for (const x of centred) expect(Number.isInteger(x)).toBe(true);
  });

  it("groups siblings keeping their place, and ungroups composing the group's offset, rotation and opacity", () => {
    const grouped = groupLayers(three(), 0, ["a", "c"]);
    if (!grouped) throw new Error("not grouped");
    const g = grouped.doc.frames[0]?.layers[1] as { layers: { id: string; x: number; y: number }[] };
    expect(grouped.id).toBe("group-1");
    expect(boxes(grouped.doc)).toEqual([
      ["b", 250, 300, 100, 100, 0],
      ["group-1", 100, 100, 700, 450, 0],
    ]);
    expect(g.layers.map((l) => [l.id, l.x, l.y])).toEqual([
      ["a", 0, 0],
      ["c", 600, 350],
    ]);
    expect(validateDocument(grouped.doc).ok).toBe(true);
    const back = ungroupLayer(grouped.doc, 0, "group-1");
    expect(back?.ids).toEqual(["a", "c"]);
    expect(boxes(back?.doc as TemplateDocumentT)).toEqual([
      ["b", 250, 300, 100, 100, 0],
      ["a", 100, 100, 100, 100, 0],
      ["c", 700, 450, 100, 100, 0],
    ]);
    // A group turned 90° about its centre: a child's centre turns with it, its angle adds up.
    const turned = doc([
      {
        id: "g",
        type: "group",
        x: 0,
        y: 0,
        width: 200,
        height: 100,
        rotation: 90,
        opacity: 0.5,
        layers: [sq("k", 0, 0, 20)],
      },
    ]);
    const out = ungroupLayer(turned, 0, "g");
    const k = out?.doc.frames[0]?.layers[0];
    expect([k?.x, k?.y, k?.rotation, k?.opacity]).toEqual([130, -50, 90, 0.5]);
    // Not siblings: no group.
    const nested = doc([
      { id: "g", type: "group", x: 0, y: 0, width: 10, height: 10, layers: [sq("k", 0, 0)] },
      sq("z", 0, 0),
    ]);
    expect(groupLayers(nested, 0, ["k", "z"])).toBeNull();
  });

  it("orders layers forward, backward, to front and to back, within their parent", () => {
    const d = doc([sq("a", 0, 0), sq("b", 0, 0), sq("c", 0, 0), sq("d", 0, 0)]);
    const ids = (x: TemplateDocumentT) => x.frames[0]?.layers.map((l) => l.id);
    expect(ids(reorderLayers(d, 0, ["a", "b"], "forward"))).toEqual(["c", "a", "b", "d"]);
    expect(ids(reorderLayers(d, 0, ["c"], "backward"))).toEqual(["a", "c", "b", "d"]);
    expect(ids(reorderLayers(d, 0, ["a", "c"], "front"))).toEqual(["b", "d", "a", "c"]);
    expect(ids(reorderLayers(d, 0, ["d"], "back"))).toEqual(["d", "a", "b", "c"]);
    const g = doc([
      { id: "g", type: "group", x: 0, y: 0, width: 10, height: 10, layers: [sq("k", 0, 0), sq("m", 0, 0)] },
    ]);
    const inner = (x: TemplateDocumentT) =>
      (x.frames[0]?.layers[0] as unknown as { layers?: { id: string }[] } | undefined)?.layers?.map(
        (l) => l.id,
      );
    expect(inner(reorderLayers(g, 0, ["k"], "front"))).toEqual(["m", "k"]);
    expect(inner(placeInParent(g, 0, "m", 0))).toEqual(["m", "k"]);
  });

  it("moves nested layers in their group's axes, scales and turns several boxes together", () => {
    const g = doc([
      {
        id: "g",
        type: "group",
        x: 0,
        y: 0,
        width: 100,
        height: 100,
        rotation: 90,
        layers: [sq("k", 0, 0, 10)],
      },
    ]);
    const moved = translateLayers(g, 0, new Map([["k", { dx: 10, dy: 0 }]]));
    const k = (moved.frames[0]?.layers[0] as unknown as { layers?: { x: number; y: number }[] } | undefined)
      ?.layers?.[0];
    expect([k?.x, k?.y]).toEqual([0, -10]);
    const starts = new Map([
      ["a", { x: 0, y: 0, width: 100, height: 100, rotation: 0 }],
      ["b", { x: 200, y: 0, width: 100, height: 100, rotation: 0 }],
    ]);
    const scaled = scaleBoxes(
      starts,
      { left: 0, top: 0, width: 300, height: 100 },
      { left: 0, top: 0, width: 600, height: 200 },
    );
    expect([...scaled.values()].map((b) => [b.x, b.y, b.width, b.height])).toEqual([
      [0, 0, 200, 200],
      [400, 0, 200, 200],
    ]);
    const turned = rotateBoxes(starts, { x: 150, y: 50 }, 90);
    expect([...turned.values()].map((b) => [b.x, b.y, b.rotation])).toEqual([
      [100, -100, 90],
      [100, 100, 90],
    ]);
  });

  it("selects by marquee (touching) and toggles with Shift/Ctrl", () => {
    const d = three();
    expect(
      layersInMarquee(d.frames[0]?.layers ?? [], { left: 0, top: 0, width: 260, height: 320 }, () => false),
    ).toEqual(["a", "b"]);
    const s = toggleInSelection(selectLayers(0, ["a"]), 0, "b");
    expect(s).toEqual({ frame: 0, layer: "b", layers: ["a", "b"] });
    expect(toggleInSelection(s, 0, "a")).toEqual({ frame: 0, layer: "b" });
  });
});
