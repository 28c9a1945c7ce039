import { createHash } from "node:crypto";
import type { ListItemValue, SlotT, StackLayerT, TemplateDocumentT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { validateDocument } from "../../src/document/validate.ts";
import { documentOf, imageLayer, stackLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const ROW_FILL: [number, number, number] = [0xf1, 0xfa, 0xee];
const SLOTS: SlotT[] = [
  {
    name: "donors",
    type: "list",
    fields: [
      { name: "name", type: "text", required: true },
      { name: "amount", type: "number", required: true },
    ],
  },
];

/** A donor list: one row (name, amount in dollars) per item, at most 8, then "and N more". */
function donorList(): StackLayerT {
  return stackLayer({
    id: "donors",
    x: 20,
    y: 20,
    width: 360,
    height: 440,
    gap: 8,
    repeat: {
      slot: "donors",
      max: 8,
      more: textLayer({
        id: "more",
        text: "and {n} more",
        width: 360,
        height: 28,
        color: "#457B9D",
        font: { family: "Inter", size: 18 },
      }),
    },
    layers: [
      stackLayer({
        id: "row",
        direction: "row",
        width: 360,
        height: 36,
        padding: [6, 12, 6, 12],
        distribute: "space-between",
        fill: "#F1FAEE",
        corner_radius: 6,
        layers: [
          textLayer({
            id: "name",
            text: "Name",
            width: 220,
            height: 24,
            font: { family: "Inter", size: 18 },
            bind: { text: "item.name" },
          }),
          textLayer({
            id: "amount",
            text: "0",
            width: 100,
            height: 24,
            align: "right",
            font: { family: "Inter", size: 18, weight: 700 },
            format: { style: "currency", currency: "USD", decimals: 0 },
            bind: { text: "item.amount" },
          }),
        ],
      }),
    ],
  });
}

const NAMES = [
  "Ada",
  "Grace",
  "Alan",
  "Edsger",
  "Barbara",
  "Donald",
  "Margaret",
  "Ken",
  "Dennis",
  "Frances",
  "John",
  "Radia",
];
const donors = (n: number): ListItemValue[] =>
  NAMES.slice(0, n).map((name, i) => ({ name, amount: 2500 - i * 175 }));

const document = (): TemplateDocumentT => documentOf([donorList()], { height: 480, slots: SLOTS });

/** How many separate runs of the row fill colour a column of pixels crosses (the drawn rows). */
async function rowsDrawn(
  items: ListItemValue[],
): Promise<{ rows: number; lastRowEnd: number; inkBelow: boolean }> {
  const engine = await testEngine();
  const result = engine.render(document(), { values: { donors: items } });
  const x = 26;
  let rows = 0;
  let inside = false;
  let lastRowEnd = 0;
  let inkBelow = false;
  for (let y = 0; y < result.height; y++) {
    const at = (y * result.width + x) * 4;
    const fill = [0, 1, 2].every((c) => result.pixels[at + c] === ROW_FILL[c]);
    if (fill && !inside) rows++;
    if (!fill && inside) lastRowEnd = y;
    inside = fill;
  }
  // The "more" line's ink (#457B9D) somewhere below the last row.
  for (let y = lastRowEnd; y < result.height && !inkBelow; y++) {
    for (let px = 20; px < 200; px++) {
      const at = (y * result.width + px) * 4;
      if (result.pixels[at] === 0x45 && result.pixels[at + 1] === 0x7b && result.pixels[at + 2] === 0x9d) {
        inkBelow = true;
        break;
      }
    }
  }
  return { rows, lastRowEnd, inkBelow };
}

describe("stack repeat", () => {
  it("is a valid document", () => {
    const result = validateDocument(document());
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("draws 3 rows for a list of 3 items, and no more line", async () => {
    await expectGolden("stack-repeat", "three-items", document(), { values: { donors: donors(3) } });
    const drawn = await rowsDrawn(donors(3));
    expect(drawn.rows).toBe(3);
    expect(drawn.inkBelow).toBe(false);
  });

  it("draws max (8) rows and 'and 4 more' for a list of 12 items", async () => {
    await expectGolden("stack-repeat", "twelve-items", document(), { values: { donors: donors(12) } });
    const drawn = await rowsDrawn(donors(12));
    expect(drawn.rows).toBe(8);
    // 20 + 8 rows of 36 + 7 gaps of 8: the last row ends at y = 364.
    expect(drawn.lastRowEnd).toBe(20 + 8 * 36 + 7 * 8);
    expect(drawn.inkBelow).toBe(true);
  });

  it("draws nothing of the rows for an empty list; an item field the item lacks keeps the design value", async () => {
    expect((await rowsDrawn([])).rows).toBe(0);
    const validation = validateDocument(document());
    expect(validation.ok).toBe(true);
  });
});

describe("stack repeat: save-time rules", () => {
  const withRepeat = (mutate: (stack: StackLayerT) => void) => {
    const stack = donorList();
    mutate(stack);
    const result = validateDocument(documentOf([stack], { height: 480, slots: SLOTS }));
    return result.ok ? [] : result.errors;
  };

  it("refuses a repeat of a slot that is not a list, and item fields the list does not have", () => {
    expect(withRepeat((s) => (s.repeat = { slot: "nope" }))).toEqual([
      expect.objectContaining({ path: "frames[0].layers[0].repeat.slot" }),
      expect.objectContaining({ path: "frames[0].layers[0].layers[0].layers[0].bind.text" }),
      expect.objectContaining({ path: "frames[0].layers[0].layers[0].layers[1].bind.text" }),
    ]);
    const typo = withRepeat((s) => {
      const row = s.layers[0] as StackLayerT;
      (row.layers[0] as { bind: Record<string, string> }).bind = { text: "item.nme" };
    });
    expect(typo).toEqual([
      {
        path: "frames[0].layers[0].layers[0].layers[0].bind.text",
        message: 'list slot "donors" has no field "nme" (did you mean "name"?); fields: "name", "amount"',
      },
    ]);
  });

  it("refuses more repeated layers than a stack holds (children x max)", () => {
    const errors = withRepeat((s) => {
      s.repeat = { slot: "donors", max: 100 };
      s.layers = [0, 1, 2].map((i) => textLayer({ id: `cell${i}`, text: "x", height: 24 }));
    });
    expect(errors).toEqual([
      {
        path: "frames[0].layers[0].repeat.max",
        message:
          "3 children x 100 items = 300 layers; a stack holds at most 200 (lower max, or repeat one row stack)",
      },
    ]);
  });
});

describe("stack repeat: images and value checks see the copies", () => {
  it("plans each item's image (item.photo), and none for an item without one", async () => {
    const slots: SlotT[] = [
      {
        name: "team",
        type: "list",
        fields: [
          { name: "photo", type: "image" },
          { name: "name", type: "text" },
        ],
      },
    ];
    const list = stackLayer({
      id: "team",
      width: 200,
      height: 400,
      repeat: { slot: "team" },
      layers: [imageLayer({ id: "face", width: 40, height: 40, src: "", bind: { src: "item.photo" } })],
    });
    const doc = documentOf([list], { height: 400, slots });
    expect(validateDocument(doc).ok).toBe(true);
    const engine = await testEngine();
    const team: ListItemValue[] = [
      { photo: "https://example.com/a.jpg" },
      { name: "no photo" },
      { photo: "https://example.com/b.jpg" },
    ];
    const planned = engine.planImages(doc, { values: { team } });
    expect(planned.map((r) => [r.src, r.width, r.height])).toEqual([
      ["https://example.com/a.jpg", 40, 40],
      ["https://example.com/b.jpg", 40, 40],
    ]);
  });
});

describe("stack repeat: copies shared between the value check, the image plan and the drawing", () => {
  it("draws a list changed in place between renders as a fresh list of the same items", async () => {
    const engine = await testEngine();
    const doc = document();
    const drawn = (donorValues: ListItemValue[]) =>
      createHash("sha256")
        .update(engine.render(doc, { values: { donors: donorValues } }).pixels)
        .digest("hex");
    const items = donors(3);
    const before = drawn(items);
    expect(drawn(donors(3))).toBe(before);
    // The same array object, its items changed: one replaced, one more, then a field set in place.
    items[0] = { ...items[0], name: "Hedy" } as ListItemValue;
    items.push({ name: "Katherine", amount: 40 });
    const changed = drawn(items);
    expect(changed).not.toBe(before);
    expect(changed).toBe(drawn([...items]));
    (items[1] as Record<string, string | number>).amount = 7;
    expect(drawn(items)).toBe(drawn(items.map((item) => ({ ...item }))));
    expect(drawn(items)).not.toBe(changed);
  });
});
