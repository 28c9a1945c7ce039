import { describe, expect, it } from "vitest";
import { slotFromLayer, valueAtPath } from "../src/model/slot-from-layer.ts";
import { doc, sq } from "./support.ts";

describe("new slot from this layer", () => {
  const d = doc(
    [
      { ...sq("box", 0, 0), name: "Hero box!", stroke: { color: "#00FF0080", width: 2 } },
      {
        id: "title",
        type: "text",
        x: 0,
        y: 0,
        width: 300,
        height: 80,
        text: "Big <b>sale</b>",
        font: { family: "Inter", size: 40 },
        color: "#111111",
      },
    ],
    [{ name: "title", type: "text" }],
  );

  it("names the slot after the layer, keeps its content as the default and binds the property, in one change", () => {
    const made = slotFromLayer(d, 0, "box", "fill", "color");
    expect(made?.slot).toBe("Hero_box");
    expect(made?.doc.slots.at(-1)).toEqual({ name: "Hero_box", type: "color", default: "#111111" });
    expect(made?.doc.frames[0]?.layers[0]?.bind).toEqual({ fill: "Hero_box" });
    // The source document is untouched.
    expect(d.slots).toHaveLength(1);
  });

  it("avoids taken names, marks markup as rich, and leaves out a default the slot could not hold", () => {
    const text = slotFromLayer(d, 0, "title", "text", "text");
    expect(text?.doc.slots.at(-1)).toEqual({
      name: "title2",
      type: "text",
      default: "Big <b>sale</b>",
      rich: true,
    });
    // A translucent colour is no colour slot default: the layer's own colour stays in use.
    const stroke = slotFromLayer(d, 0, "box", "stroke.color", "color");
    expect(stroke?.doc.slots.at(-1)).toEqual({ name: "Hero_box_stroke_color", type: "color" });
    expect(valueAtPath(d.frames[0]?.layers[0] as never, "stroke.color")).toBe("#00FF0080");
    expect(slotFromLayer(d, 0, "nope", "fill", "color")).toBeNull();
  });
});
