import { describe, expect, it } from "vitest";
import { extent, hitBox, resizeBox, rotationTo, snapMove, snapResize } from "../src/model/geometry.ts";
import { absoluteBox, parentRotation, rememberLaidOutBoxes, toParentAxes } from "../src/model/selection.ts";

const frame = { width: 1000, height: 500 };

describe("editor geometry", () => {
  it("hit-tests a rotated box in its own axes", () => {
    const box = { x: 100, y: 100, width: 200, height: 20, rotation: 90 };
    expect(hitBox(box, 200, 110)).toBe(true);
    expect(hitBox(box, 200, 195)).toBe(true); // inside only once turned a quarter
    expect(hitBox(box, 290, 110)).toBe(false); // inside only when not turned
  });

  it("snaps a moving box's centre to the frame centre line and reports the guide", () => {
    const snap = snapMove({ left: 445, top: 10, width: 100, height: 50 }, frame, [], 6);
    expect(snap.dx).toBe(5);
    expect(snap.dy).toBe(0); // top 10 is 10 from the edge 0, beyond the threshold
    expect(snap.guides).toEqual([{ axis: "x", at: 500 }]);
  });

  it("snaps to another layer's edge, the nearest candidate winning", () => {
    const other = { left: 600, top: 200, width: 100, height: 100 };
    const snap = snapMove({ left: 703, top: 296, width: 50, height: 50 }, frame, [other], 6);
    expect(snap.dx).toBe(-3);
    expect(snap.dy).toBe(4);
  });

  it("resizes from a corner keeping the opposite corner fixed, also when rotated", () => {
    expect(resizeBox({ x: 0, y: 0, width: 100, height: 50, rotation: 0 }, 1, 1, 20, 10, false)).toEqual({
      x: 0,
      y: 0,
      width: 120,
      height: 60,
      rotation: 0,
    });
    // Turned a quarter clockwise, dragging the local right edge means moving the pointer down.
    const turned = resizeBox({ x: 0, y: 0, width: 100, height: 50, rotation: 90 }, 1, 0, 0, 40, false);
    expect(turned.width).toBe(140);
    expect(turned.height).toBe(50);
    // The local left edge (now on top) stays where it was: centre moved 20 down.
    expect(turned.y + turned.height / 2).toBe(25 + 20);
  });

  it("keeps the aspect ratio with Shift on a corner handle", () => {
    const box = resizeBox({ x: 0, y: 0, width: 200, height: 100, rotation: 0 }, 1, 1, 100, 0, true);
    expect(box.width / box.height).toBe(2);
  });

  it("rotates towards the pointer in 15° steps unless free", () => {
    const box = { x: 0, y: 0, width: 100, height: 100, rotation: 0 };
    expect(rotationTo(box, 150, 50, true)).toBe(90);
    expect(rotationTo(box, 50, -100, true)).toBe(0);
    expect(rotationTo(box, 150, 40, false)).toBeCloseTo(84.3, 1);
  });

  it("snaps a dragged edge during resize and leaves the opposite edge", () => {
    const { box, guides } = snapResize(
      { x: 100, y: 100, width: 396, height: 50, rotation: 0 },
      1,
      0,
      frame,
      [],
      6,
    );
    expect(box).toMatchObject({ x: 100, width: 400 });
    expect(guides).toEqual([{ axis: "x", at: 500 }]);
    const left = snapResize({ x: 4, y: 100, width: 96, height: 50, rotation: 0 }, -1, 0, frame, [], 6).box;
    expect(left).toMatchObject({ x: 0, width: 100 });
  });

  it("extent of a quarter-turned box swaps its sides about the centre", () => {
    expect(extent({ x: 0, y: 0, width: 100, height: 20, rotation: 90 })).toEqual({
      left: 40,
      top: -40,
      width: expect.closeTo(20, 6),
      height: 100,
    });
  });
});

describe("nested layers in rotated groups", () => {
  const frame = {
    name: "f",
    width: 400,
    height: 300,
    layers: [
      {
        id: "g",
        type: "group" as const,
        x: 100,
        y: 100,
        width: 200,
        height: 100,
        rotation: 90,
        layers: [
          {
            id: "dot",
            type: "shape" as const,
            shape: "ellipse" as const,
            x: 0,
            y: 0,
            width: 20,
            height: 20,
            fill: "#000000",
          },
        ],
      },
    ],
  };

  it("places a child's box where the engine draws it: turned with its group about the group's centre", () => {
    const box = absoluteBox(frame, "dot");
    expect(box?.x).toBeCloseTo(230, 9);
    expect(box?.y).toBeCloseTo(50, 9);
    expect(box?.rotation).toBe(90);
    expect(parentRotation(frame, "dot")).toBe(90);
    expect(parentRotation(frame, "g")).toBe(0);
  });

  it("expresses a drag in the group's axes", () => {
    const d = toParentAxes(0, 10, 90);
    expect(d.x).toBeCloseTo(10, 9);
    expect(d.y).toBeCloseTo(0, 9);
  });

  it("draws a stack child's handles where the engine's layout put it (the render's boxes)", () => {
    const stacked = {
      name: "main",
      width: 400,
      height: 400,
      layers: [
        {
          id: "s",
          type: "stack",
          x: 20,
          y: 30,
          width: 200,
          height: 200,
          layers: [
            {
              id: "a",
              type: "shape",
              shape: "rectangle",
              x: 0,
              y: 0,
              width: 50,
              height: 10,
              fill: "#000000",
            },
          ],
        },
      ],
    } as unknown as Parameters<typeof absoluteBox>[0];
    expect(absoluteBox(stacked, "a")).toMatchObject({ x: 20, y: 30, width: 50, height: 10 });
    rememberLaidOutBoxes(stacked, { a: { x: 8, y: 12, width: 184, height: 10 } });
    expect(absoluteBox(stacked, "a")).toMatchObject({ x: 28, y: 42, width: 184, height: 10 });
  });
});
