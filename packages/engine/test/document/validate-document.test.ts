import { describe, expect, it } from "vitest";
import { layerTypes } from "../../src/document/schema.ts";
import { formatValidationErrors, validateDocument } from "../../src/document/validate.ts";
import { MAX_ERRORS } from "../../src/document/validate-schema.ts";
import { MAX_GROUP_DEPTH } from "../../src/document/validate-semantics.ts";
import { MAX_JSON_DEPTH } from "../../src/document/validate-structure.ts";
import { validDocument } from "./helpers.ts";

type Doc = ReturnType<typeof validDocument>;
// biome-ignore lint/suspicious/noExplicitAny: tests reach into the document to break one thing
type Any = any;

function errorsOf(mutate: (doc: Doc & Any) => void): { path: string; message: string }[] {
  const doc = validDocument();
  mutate(doc);
  const result = validateDocument(doc);
  if (result.ok) throw new Error("expected the document to be invalid");
  return result.errors;
}

describe("validateDocument: valid input", () => {
  it("accepts a valid document and returns the same object untouched", () => {
    const doc = validDocument();
    const before = JSON.stringify(doc);
    const result = validateDocument(doc);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.document).toBe(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe("validateDocument: schema errors name the JSON path, one per problem", () => {
  // Every layer type, in the registry's order (document/layers/registry.ts).
  const types = layerTypes()
    .map((type) => JSON.stringify(type))
    .join(", ");
  const cases: [string, (d: Any) => void, string, string][] = [
    [
      "font size 0",
      (d) => (d.frames[0].layers[0].font.size = 0),
      "frames[0].layers[0].font.size",
      "must be > 0",
    ],
    [
      "negative width",
      (d) => (d.frames[0].layers[1].width = -1),
      "frames[0].layers[1].width",
      "must be >= 0",
    ],
    [
      "opacity 1.5",
      (d) => (d.frames[0].layers[1].opacity = 1.5),
      "frames[0].layers[1].opacity",
      "must be <= 1",
    ],
    [
      "unknown align",
      (d) => (d.frames[0].layers[0].align = "middle"),
      "frames[0].layers[0].align",
      'must be one of "left", "center", "right", "justify"',
    ],
    [
      "unknown layer type",
      (d) => (d.frames[0].layers[1].type = "circle"),
      "frames[0].layers[1].type",
      `must be one of ${types}`,
    ],
    [
      "missing layer type",
      (d) => delete d.frames[0].layers[1].type,
      "frames[0].layers[1].type",
      `is required (one of ${types})`,
    ],
    ["missing text", (d) => delete d.frames[0].layers[0].text, "frames[0].layers[0].text", "is required"],
    [
      "typo in a property",
      (d) => (d.frames[0].layers[0].colour = "#000000"),
      "frames[0].layers[0].colour",
      'is not a known property (did you mean "color"?)',
    ],
    [
      "named colour",
      (d) => (d.frames[0].layers[1].fill = "red"),
      "frames[0].layers[1].fill",
      'must be a colour in the form "#RRGGBB" or "#RRGGBBAA"',
    ],
    [
      "fill of the wrong JSON type",
      (d) => (d.frames[0].layers[1].fill = 3),
      "frames[0].layers[1].fill",
      'must be a colour like "#RRGGBB" or a gradient object or a pattern object or null',
    ],
    [
      "corner radius tuple of 3",
      (d) => (d.frames[0].layers[1].corner_radius = [1, 2, 3]),
      "frames[0].layers[1].corner_radius",
      "must be an array of exactly 4 items",
    ],
    [
      "corner radius as a string",
      (d) => (d.frames[0].layers[1].corner_radius = "4"),
      "frames[0].layers[1].corner_radius",
      "must be a number >= 0 or an array of 4 numbers",
    ],
    [
      "stroke without width",
      (d) => (d.frames[0].layers[1].stroke = { color: "#000000" }),
      "frames[0].layers[1].stroke.width",
      "is required",
    ],
    [
      "inside a group",
      (d) => (d.frames[0].layers[2].layers[0].fit = "stretch"),
      "frames[0].layers[2].layers[0].fit",
      'must be one of "cover", "contain", "fill"',
    ],
    [
      "focal point out of range",
      (d) => (d.frames[0].layers[2].layers[0].focal = { x: 0.5, y: 2 }),
      "frames[0].layers[2].layers[0].focal.y",
      "must be <= 1",
    ],
    [
      "fractional frame width",
      (d) => (d.frames[0].width = 10.5),
      "frames[0].width",
      "must be a whole number",
    ],
    ["frame too wide", (d) => (d.frames[0].width = 9000), "frames[0].width", "must be <= 8000"],
    ["no frames", (d) => (d.frames = []), "frames", "must have at least 1 item"],
    ["empty name", (d) => (d.name = ""), "name", "must not be empty"],
    [
      "bad key",
      (d) => (d.key = "My Promo"),
      "key",
      'must be a slug: lowercase letters, digits and "-", starting with a letter or digit (at most 64 characters)',
    ],
    [
      "bad slot type",
      (d) => (d.slots[1].type = "colour"),
      "slots[1].type",
      'must be one of "text", "image", "color", "number", "date", "list"',
    ],
    [
      "slot colour default #FFF",
      (d) => (d.slots[1].default = "#FFF"),
      "slots[1].default",
      'must be a colour in the form "#RRGGBB"',
    ],
    [
      "font weight 950",
      (d) => (d.frames[0].layers[0].font.weight = 950),
      "frames[0].layers[0].font.weight",
      "must be <= 900",
    ],
    [
      "letter spacing as a string",
      (d) => (d.frames[0].layers[0].font.letter_spacing = "2px"),
      "frames[0].layers[0].font.letter_spacing",
      "must be a number",
    ],
    [
      "rotation null",
      (d) => (d.frames[0].layers[1].rotation = null),
      "frames[0].layers[1].rotation",
      "must be a number",
    ],
    [
      "visible as a string",
      (d) => (d.frames[0].layers[1].visible = "yes"),
      "frames[0].layers[1].visible",
      "must be true or false",
    ],
    ["frames not an array", (d) => (d.frames = {}), "frames", "must be an array"],
    [
      "slot name with a space",
      (d) => (d.slots[0].name = "head line"),
      "slots[0].name",
      'must start with a letter or "_" and contain only letters, digits, "_" and "-" (at most 64 characters)',
    ],
  ];
  it.each(cases)("%s", (_name, mutate, path, message) => {
    expect(errorsOf(mutate)).toEqual([{ path, message }]);
  });

  it("reports independent problems separately, in document order", () => {
    const errors = errorsOf((d) => {
      d.frames[0].layers[0].font.size = -3;
      d.frames[0].layers[2].layers[0].src = 5;
    });
    expect(errors).toEqual([
      { path: "frames[0].layers[0].font.size", message: "must be > 0" },
      { path: "frames[0].layers[2].layers[0].src", message: "must be a string" },
    ]);
  });

  it("quotes keys that are not identifiers", () => {
    const errors = errorsOf((d) => (d.frames[0]["my key"] = 1));
    expect(errors).toEqual([{ path: 'frames[0]["my key"]', message: "is not a known property" }]);
  });
});

describe("validateDocument: semantic rules", () => {
  const cases: [string, (d: Any) => void, string, string][] = [
    [
      "duplicate slot name",
      (d) => d.slots.push({ name: "brand", type: "color" }),
      "slots[3].name",
      'duplicate slot name "brand" (first at slots[1])',
    ],
    [
      "duplicate frame name",
      (d) => d.frames.push({ ...structuredClone(d.frames[0]) }),
      "frames[1].name",
      'duplicate frame name "post" (first at frames[0])',
    ],
    [
      "duplicate layer id inside a group",
      (d) => (d.frames[0].layers[2].layers[0].id = "title"),
      "frames[0].layers[2].layers[0].id",
      'duplicate layer id "title" in frame "post" (first at frames[0].layers[0])',
    ],
    [
      "binding to a missing slot",
      (d) => (d.frames[0].layers[0].bind = { text: "headlin" }),
      "frames[0].layers[0].bind.text",
      'slot "headlin" does not exist (did you mean "headline"?)',
    ],
    [
      "binding to a slot of the wrong type",
      (d) => (d.frames[0].layers[0].bind = { color: "headline" }),
      "frames[0].layers[0].bind.color",
      'slot "headline" is a text slot, but "color" needs a color slot',
    ],
    [
      "image source bound to a colour slot",
      (d) => (d.frames[0].layers[2].layers[0].bind = { src: "brand" }),
      "frames[0].layers[2].layers[0].bind.src",
      'slot "brand" is a color slot, but "src" needs an image slot',
    ],
    [
      "property that cannot be bound",
      (d) => (d.frames[0].layers[0].bind = { font: "headline" }),
      "frames[0].layers[0].bind.font",
      '"font" cannot be bound on a text layer; bindable: "text", "color", "stroke.color", "highlight.color"',
    ],
    [
      "binding on a group",
      (d) => (d.frames[0].layers[2].bind = { fill: "brand" }),
      "frames[0].layers[2].bind.fill",
      "a group layer has no bindable properties (bind its children instead)",
    ],
    [
      "frame property that cannot be bound",
      (d) => (d.frames[0].bind = { backgroud: "brand" }),
      "frames[0].bind.backgroud",
      '"backgroud" cannot be bound on a frame; bindable: "background" (did you mean "background"?)',
    ],
    [
      "stroke colour bound without a stroke",
      (d) => (d.frames[0].layers[1].bind = { "stroke.color": "brand" }),
      'frames[0].layers[1].bind["stroke.color"]',
      'is bound, but the layer has no stroke to colour (add "stroke")',
    ],
    [
      "min_size above the font size",
      (d) => Object.assign(d.frames[0].layers[0], { fit: "shrink", min_size: 80 }),
      "frames[0].layers[0].min_size",
      "must be <= font.size (64)",
    ],
    [
      "slot default longer than max_length",
      (d) => (d.slots[0].default = "x".repeat(41)),
      "slots[0].default",
      "must be at most 40 characters (the slot's max_length)",
    ],
    [
      "sample colour #FFF",
      (d) => (d.sample = { brand: "#FFF" }),
      "sample.brand",
      'must be a colour in the form "#RRGGBB" (got "#FFF")',
    ],
    [
      "sample for an unknown slot",
      (d) => (d.sample = { logo: "x.png" }),
      "sample.logo",
      'slot "logo" does not exist',
    ],
  ];
  it.each(cases)("%s", (_name, mutate, path, message) => {
    expect(errorsOf(mutate)).toEqual([{ path, message }]);
  });

  it("accepts every bindable property of every layer kind", () => {
    const doc = validDocument() as Any;
    doc.frames[0].bind = { background: "brand" };
    doc.frames[0].layers[0].bind = { text: "headline", color: "brand" };
    doc.frames[0].layers[1].stroke = { color: "#000000", width: 2 };
    doc.frames[0].layers[1].bind = { fill: "brand", "stroke.color": "brand" };
    expect(validateDocument(doc)).toMatchObject({ ok: true });
  });

  it("limits group nesting", () => {
    const doc = validDocument() as Any;
    let group: Any = {
      id: "leaf",
      type: "text",
      x: 0,
      y: 0,
      width: 1,
      height: 1,
      text: "",
      font: { family: "Inter", size: 10 },
      color: "#000000",
    };
    for (let i = 0; i < 40; i++)
      group = { id: `g${i}`, type: "group", x: 0, y: 0, width: 1, height: 1, layers: [group] };
    doc.frames[0].layers = [group];
    const result = validateDocument(doc);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]?.message).toBe("groups are nested too deeply (at most 32 levels)");
      expect(result.errors[0]?.path).toBe(`frames[0]${".layers[0]".repeat(33)}`);
    }
  });

  it("accepts exactly 32 levels of group nesting and names the 33rd group's path", () => {
    const nested = (depth: number) => {
      const doc = validDocument() as Any;
      let layer: Any = {
        id: "leaf",
        type: "shape",
        shape: "rectangle",
        x: 0,
        y: 0,
        width: 1,
        height: 1,
        fill: "#000000",
      };
      for (let i = 0; i < depth; i++)
        layer = { id: `g${i}`, type: "group", x: 0, y: 0, width: 1, height: 1, layers: [layer] };
      doc.frames[0].layers = [layer];
      return validateDocument(doc);
    };
    expect(MAX_GROUP_DEPTH).toBe(32);
    expect(nested(32)).toMatchObject({ ok: true });
    expect(nested(33)).toEqual({
      ok: false,
      errors: [
        {
          path: `frames[0]${".layers[0]".repeat(33)}`,
          message: "groups are nested too deeply (at most 32 levels)",
        },
      ],
    });
  });
});

describe("validateDocument never throws", () => {
  const hostile: [string, unknown][] = [
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a string", "{}"],
    ["an array", [1, 2, 3]],
    ["an empty object", {}],
  ];
  it.each(hostile)("%s is answered with errors", (_name, input) => {
    const result = validateDocument(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
  });

  it("rejects non-objects with one root error", () => {
    expect(validateDocument(null)).toEqual({
      ok: false,
      errors: [{ path: "", message: "must be an object" }],
    });
    expect(validateDocument([])).toEqual({ ok: false, errors: [{ path: "", message: "must be an object" }] });
  });

  it("handles 10,000 levels of nesting without overflowing the stack", () => {
    // Built as text: JSON.stringify of such an object would itself overflow the stack.
    const json = JSON.parse(`${'{"version":1,"frames":['.repeat(10_000)}{}${"]}".repeat(10_000)}`);
    const result = validateDocument(json);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]?.message).toBe(`is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`);
    }
  });

  it("treats __proto__ keys as data and never pollutes prototypes", () => {
    const doc = JSON.parse(
      `{"__proto__":{"polluted":true},"version":1,"key":"a","name":"A","slots":[],"frames":[{"name":"f","width":1,"height":1,"layers":[],"bind":{"__proto__":"x"}}],"sample":{"__proto__":"y"}}`,
    );
    const result = validateDocument(doc);
    expect(({} as Any).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(result).toEqual({
      ok: false,
      errors: [{ path: "__proto__", message: "is not a known property" }],
    });
    Reflect.deleteProperty(doc, "__proto__");
    const second = validateDocument(doc);
    expect(second.ok).toBe(false);
    if (!second.ok) {
      expect(second.errors).toEqual([
        {
          path: "frames[0].bind.__proto__",
          message: '"__proto__" cannot be bound on a frame; bindable: "background"',
        },
        { path: "sample.__proto__", message: 'slot "__proto__" does not exist' },
      ]);
    }
  });

  it("does not pollute prototypes while migrating a v0 document", () => {
    const v0 = JSON.parse(
      `{"key":"a","name":"A","width":1,"height":1,"slots":[],"layers":[{"__proto__":{"hacked":1},"id":"t","type":"shape","shape":"ellipse","x":0,"y":0,"width":1,"height":1}]}`,
    );
    const result = validateDocument(v0);
    expect(({} as Any).hacked).toBeUndefined();
    expect(result).toEqual({
      ok: false,
      errors: [{ path: "frames[0].layers[0].__proto__", message: "is not a known property" }],
    });
  });

  it("rejects circular and shared references instead of looping", () => {
    const doc = validDocument() as Any;
    doc.frames[0].layers[2].layers.push(doc.frames[0]);
    const result = validateDocument(doc);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: "frames[0].layers[2].layers[1]",
          message: "must not be a shared or circular reference (documents are JSON trees)",
        },
      ],
    });
  });

  it("answers hostile objects with throwing getters", () => {
    const doc = validDocument() as Any;
    Object.defineProperty(doc, "name", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const result = validateDocument(doc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.message).toContain("boom");
  });

  it(`caps the error list at ${MAX_ERRORS}`, () => {
    const doc = validDocument() as Any;
    doc.frames[0].layers = Array.from({ length: 300 }, (_, i) => ({ id: `l${i}`, type: "shape" }));
    const result = validateDocument(doc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toHaveLength(MAX_ERRORS);
  });

  it("formats errors as path: message lines", () => {
    expect(
      formatValidationErrors([
        { path: "a.b", message: "must be > 0" },
        { path: "", message: "must be an object" },
      ]),
    ).toBe("a.b: must be > 0\nmust be an object");
  });
});
