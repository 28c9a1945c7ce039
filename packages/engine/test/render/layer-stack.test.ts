import { EngineError, type Layer, MAX_STACK_CHILDREN, type SlotT, type StackLayerT } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  documentOf,
  groupLayer,
  imageLayer,
  shapeLayer,
  stackLayer,
  textLayer,
} from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { prepareAll } from "../support/images.ts";
import { expectGolden } from "../support/render.ts";

const INK = "#1D3557";
const SLOTS: SlotT[] = [{ name: "subtitle", type: "text" }];

/** A card: title, an optional subtitle (slot `subtitle`), a body and a button, in a column 16 apart. */
function card(): StackLayerT {
  return stackLayer({
    id: "card",
    x: 20,
    y: 20,
    width: 360,
    height: 360,
    padding: 20,
    gap: 16,
    fill: "#F1FAEE",
    corner_radius: 16,
    layers: [
      textLayer({ id: "title", text: "Title", height: 40, font: { family: "Inter", size: 32, weight: 700 } }),
      textLayer({
        id: "subtitle",
        text: "",
        height: 40,
        color: "#457B9D",
        font: { family: "Inter", size: 24 },
        bind: { text: "subtitle" },
      }),
      shapeLayer({ id: "body", width: 320, height: 80, fill: "#A8DADC" }),
      shapeLayer({ id: "button", width: 140, height: 44, fill: "#E63946", corner_radius: 22 }),
    ],
  });
}

/** The rows of a render as RGBA byte strings (premultiplied, as drawn), for comparing moved parts. */
async function rowsOf(layers: Layer[], values: Record<string, string>, height = 400): Promise<Uint8Array[]> {
  const engine = await testEngine();
  const document = documentOf(layers, { height, slots: SLOTS });
  const images = prepareAll(engine.planImages(document, { values }));
  const result = engine.render(document, { values, images });
  const stride = result.width * 4;
  return Array.from({ length: result.height }, (_, y) => result.pixels.slice(y * stride, (y + 1) * stride));
}

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a !== undefined && b !== undefined && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** The first row (from `from`) whose pixel at x is the colour. */
function firstRowWith(rows: Uint8Array[], x: number, rgb: [number, number, number], from = 0): number {
  for (let y = from; y < rows.length; y++) {
    const row = rows[y] as Uint8Array;
    if (row[x * 4] === rgb[0] && row[x * 4 + 1] === rgb[1] && row[x * 4 + 2] === rgb[2]) return y;
  }
  return -1;
}

/** The leftmost and rightmost x of a colour in a row. */
function spanOf(row: Uint8Array, rgb: [number, number, number]): [number, number] {
  let left = -1;
  let right = -1;
  for (let x = 0; x < row.length / 4; x++) {
    if (row[x * 4] === rgb[0] && row[x * 4 + 1] === rgb[1] && row[x * 4 + 2] === rgb[2]) {
      if (left < 0) left = x;
      right = x;
    }
  }
  return [left, right];
}

describe("stack layer", () => {
  it("shows an optional field when its slot has a value", async () => {
    await expectGolden("layer-stack", "optional-shown", documentOf([card()], { height: 400, slots: SLOTS }), {
      values: { subtitle: "An optional subtitle" },
    });
  });

  it("hides an empty optional field; the layers below move up by its height plus the gap", async () => {
    await expectGolden(
      "layer-stack",
      "optional-hidden",
      documentOf([card()], { height: 400, slots: SLOTS }),
      {
        values: { subtitle: "" },
      },
    );
    const shown = await rowsOf([card()], { subtitle: "An optional subtitle" });
    const hidden = await rowsOf([card()], { subtitle: "" });
    // Title at 40..80, subtitle 96..136, body 152..232 when shown; without it the body starts at 96.
    const moved = 40 + 16;
    const bodyShown = firstRowWith(shown, 100, [0xa8, 0xda, 0xdc]);
    const bodyHidden = firstRowWith(hidden, 100, [0xa8, 0xda, 0xdc]);
    expect(bodyShown).toBe(40 + 40 + 16 + 40 + 16);
    expect(bodyShown - bodyHidden).toBe(moved);
    // Everything from the body down is the same pixels, moved up by exactly that much.
    for (let y = bodyHidden; y < 300; y++) expect(same(hidden[y], shown[y + moved]), `row ${y}`).toBe(true);
    // And everything above the subtitle is untouched.
    for (let y = 0; y < 40 + 40 + 16; y++) expect(same(hidden[y], shown[y]), `row ${y}`).toBe(true);
  });

  it("hides a child whose visible_when fails the same way", async () => {
    const conditional = card();
    const subtitle = conditional.layers[1] as Layer;
    conditional.layers[1] = {
      ...subtitle,
      text: "Always here",
      visible_when: { slot: "subtitle", is: "non_empty" },
    } as Layer;
    const hidden = await rowsOf([conditional], {});
    const empty = await rowsOf([card()], { subtitle: "" });
    for (let y = 0; y < 400; y++) expect(same(hidden[y], empty[y]), `row ${y}`).toBe(true);
  });

  it("grows a text with auto height and pushes the next sibling down", async () => {
    const column = (text: string) =>
      stackLayer({
        id: "column",
        x: 20,
        y: 20,
        width: 300,
        height: 360,
        gap: 12,
        layers: [
          textLayer({
            id: "grows",
            text,
            width: 300,
            height: 10,
            layout: { height: "hug" },
            font: { family: "Inter", size: 24 },
          }),
          shapeLayer({ id: "next", width: 300, height: 60, fill: INK }),
        ],
      });
    const short = "One line";
    const long = "Three lines of text that wrap in a box three hundred pixels wide";
    await expectGolden("layer-stack", "grow-short", documentOf([column(short)], { height: 400 }));
    await expectGolden("layer-stack", "grow-long", documentOf([column(long)], { height: 400 }));
    const lineHeight = 24 * 1.2;
    const one = firstRowWith(await rowsOf([column(short)], {}), 150, [0x1d, 0x35, 0x57]);
    const three = firstRowWith(await rowsOf([column(long)], {}), 150, [0x1d, 0x35, 0x57]);
    expect(one).toBe(Math.ceil(20 + lineHeight + 12));
    expect(three).toBe(Math.ceil(20 + 3 * lineHeight + 12));
  });

  it("stops growing at max_height and shrinks the type instead", async () => {
    const text = "A long text that would need many lines in this narrow box, so it shrinks";
    await expectGolden(
      "layer-stack",
      "grow-max",
      documentOf(
        [
          textLayer({
            id: "capped",
            text,
            x: 20,
            y: 20,
            width: 200,
            height: 10,
            fit: "shrink",
            layout: { height: "hug", max_height: 90 },
            font: { family: "Inter", size: 28 },
          }),
          shapeLayer({ id: "mark", x: 20, y: 110, width: 200, height: 4, fill: INK }),
        ],
        { width: 260, height: 140 },
      ),
    );
  });

  it("hugs a pill around a one-word and a five-word label", async () => {
    const pill = (label: string, y: number): StackLayerT =>
      stackLayer({
        id: `pill-${y}`,
        direction: "row",
        x: 20,
        y,
        width: 10,
        height: 10,
        padding: [10, 24, 10, 24],
        layout: { width: "hug", height: "hug" },
        fill: "#2A9D8F",
        corner_radius: 22,
        layers: [
          textLayer({
            id: `label-${y}`,
            text: label,
            color: "#FFFFFF",
            layout: { width: "hug", height: "hug" },
            font: { family: "Inter", size: 20, weight: 600 },
          }),
        ],
      });
    const layers = [pill("New", 20), pill("Free shipping on every order", 90)];
    await expectGolden("layer-stack", "pills", documentOf(layers, { height: 160 }));
    const rows = await rowsOf(layers, {}, 160);
    const teal: [number, number, number] = [0x2a, 0x9d, 0x8f];
    // Height: 10 + one line (24 px) + 10; the middle row of each pill spans its label plus 2 x 24.
    const [oneLeft, oneRight] = spanOf(rows[20 + 22] as Uint8Array, teal);
    const [fiveLeft, fiveRight] = spanOf(rows[90 + 22] as Uint8Array, teal);
    // (the rounded ends' edge pixel at x = 20 is partly covered, so it is not the pure colour)
    expect(oneLeft - 20).toBeLessThanOrEqual(1);
    expect(fiveLeft - 20).toBeLessThanOrEqual(1);
    // "New" at 20 px semibold is about 40 px wide: the pill is that plus 24 px padding each side.
    expect(oneRight - oneLeft).toBeGreaterThan(48 + 30);
    expect(oneRight - oneLeft).toBeLessThan(48 + 50);
    expect(fiveRight - fiveLeft).toBeGreaterThan(oneRight - oneLeft + 200);
    expect(firstRowWith(rows, 60, teal)).toBe(20);
    expect(firstRowWith(rows, 60, teal, 70)).toBe(90);
    expect(firstRowWith(rows, 60, [255, 255, 255], 20)).toBe(20 + 44);
  });

  it("fills, distributes and aligns children in a row", async () => {
    const row = (distribute: StackLayerT["distribute"], align: StackLayerT["align"], y: number) =>
      stackLayer({
        id: `row-${y}`,
        direction: "row",
        x: 20,
        y,
        width: 360,
        height: 60,
        gap: 10,
        padding: 6,
        distribute,
        align,
        fill: "#EEEEEE",
        layers: [
          shapeLayer({ id: `a-${y}`, width: 40, height: 30, fill: "#E63946" }),
          shapeLayer({ id: `b-${y}`, width: 60, height: 20, fill: "#457B9D" }),
          shapeLayer({ id: `c-${y}`, width: 30, height: 40, fill: "#2A9D8F" }),
        ],
      });
    const filled = stackLayer({
      id: "filled",
      direction: "row",
      x: 20,
      y: 340,
      width: 360,
      height: 40,
      gap: 10,
      fill: "#EEEEEE",
      layers: [
        shapeLayer({ id: "fixed", width: 50, height: 40, fill: "#E63946" }),
        shapeLayer({ id: "fill-1", width: 0, height: 40, fill: "#457B9D", layout: { width: "fill" } }),
        shapeLayer({ id: "fill-2", width: 0, height: 40, fill: "#2A9D8F", layout: { width: "fill" } }),
      ],
    });
    await expectGolden(
      "layer-stack",
      "row-distribution",
      documentOf(
        [
          row("start", "start", 20),
          row("center", "center", 90),
          row("end", "end", 160),
          row("space-between", "stretch", 230),
          filled,
        ],
        { height: 400 },
      ),
    );
  });

  it("wraps a row of icons and labels, nests stacks, and keeps images at their size", async () => {
    const chip = (label: string) =>
      stackLayer({
        id: `chip-${label}`,
        direction: "row",
        width: 10,
        height: 10,
        gap: 6,
        padding: [6, 12, 6, 8],
        align: "center",
        layout: { width: "hug", height: "hug" },
        fill: "#E9F5F2",
        corner_radius: 8,
        layers: [
          imageLayer({ id: `dot-${label}`, src: "checker:16x16", width: 16, height: 16, corner_radius: 8 }),
          textLayer({
            id: `label-${label}`,
            text: label,
            color: INK,
            layout: { width: "hug", height: "hug" },
            font: { family: "Inter", size: 16 },
          }),
        ],
      });
    const labels = ["Remote", "Full time", "Senior", "TypeScript", "Berlin or Lisbon", "4 days a week"];
    await expectGolden(
      "layer-stack",
      "wrap-nested",
      documentOf(
        [
          stackLayer({
            id: "tags",
            direction: "row",
            wrap: true,
            x: 20,
            y: 20,
            width: 300,
            height: 160,
            gap: 8,
            line_gap: 10,
            layers: labels.map(chip),
          }),
        ],
        { width: 340, height: 200 },
      ),
    );
  });

  it("fits a group to its text plus padding, a filling shape behind (speech bubbles)", async () => {
    const bubble = (id: string, text: string, y: number) =>
      groupLayer({
        id,
        x: 20,
        y,
        width: 10,
        height: 10,
        padding: [12, 16, 12, 16],
        layout: { width: "hug", height: "hug" },
        layers: [
          shapeLayer({
            id: `${id}-shape`,
            width: 0,
            height: 0,
            fill: "#457B9D",
            corner_radius: [18, 18, 18, 4],
            layout: { width: "fill", height: "fill" },
          }),
          textLayer({
            id: `${id}-text`,
            text,
            x: 0,
            y: 0,
            color: "#FFFFFF",
            layout: { width: "hug", height: "hug", max_width: 260 },
            font: { family: "Inter", size: 18 },
          }),
        ],
      });
    const layers = [
      bubble("short", "Hi!", 20),
      bubble("long", "A longer message wraps at the bubble's maximum width and the bubble grows down", 80),
    ];
    await expectGolden("layer-stack", "bubbles", documentOf(layers, { width: 340, height: 200 }));
    const rows = await rowsOf(layers, {}, 200);
    const blue: [number, number, number] = [0x45, 0x7b, 0x9d];
    // The short bubble: one line (21.6 px) plus 24 px of padding tall, from y 20.
    expect(firstRowWith(rows, 30, [255, 255, 255], 21)).toBe(Math.ceil(20 + 21.6 + 24));
    // The long one is as wide as its maximum text width plus 32 px of padding (at most 292 px).
    const [left, right] = spanOf(rows[120] as Uint8Array, blue);
    expect(left).toBe(20);
    expect(right - left + 1).toBeLessThanOrEqual(260 + 32);
    expect(right - left + 1).toBeGreaterThan(200);
  });

  it(`refuses to draw a stack of more than ${MAX_STACK_CHILDREN} children (validation refuses it first)`, async () => {
    const engine = await testEngine();
    const many = Array.from({ length: MAX_STACK_CHILDREN + 1 }, (_, i) =>
      shapeLayer({ id: `s${i}`, width: 1, height: 1 }),
    );
    const document = documentOf([stackLayer({ id: "big", layers: many })]);
    let thrown: unknown;
    try {
      engine.render(document, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EngineError);
    expect((thrown as EngineError).code).toBe("invalid_document");
    expect((thrown as EngineError).path).toBe("frames[0].layers[0].layers");
  });

  it("tells where layout put each child (RenderResult.boxes, in the parent's coordinates)", async () => {
    const engine = await testEngine();
    const document = documentOf([card()], { height: 400, slots: SLOTS });
    const result = engine.render(document, { values: { subtitle: "" } });
    expect(result.boxes.card).toEqual({ x: 20, y: 20, width: 360, height: 360 });
    expect(result.boxes.title).toEqual({ x: 20, y: 20, width: 360, height: 40 });
    expect(result.boxes.body).toEqual({ x: 20, y: 76, width: 320, height: 80 });
    expect(result.boxes.subtitle).toBeUndefined();
  });
});
