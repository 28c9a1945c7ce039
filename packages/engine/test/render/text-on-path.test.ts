import { type TextLayerT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { codes, expectGolden } from "../support/render.ts";

const FEATURE = "text-on-path";

/** A badge's two arcs of words round a disc, a wave of SVG path data, an arc with an outline and a gradient. */
const onPaths = () =>
  documentOf(
    [
      shapeLayer({ id: "disc", shape: "ellipse", x: 40, y: 30, width: 140, height: 140, fill: "#1D3557" }),
      textLayer({
        id: "top",
        text: "Certified fresh",
        x: 30,
        y: 20,
        width: 160,
        height: 160,
        color: "#1D3557",
        font: { family: "Inter", size: 20, weight: 700, letter_spacing: 2 },
        transform: "uppercase",
        on_path: { shape: "circle" },
      }),
      textLayer({
        id: "bottom",
        text: "since 2026",
        x: 22,
        y: 12,
        width: 176,
        height: 176,
        color: "#E63946",
        font: { family: "Inter", size: 16, weight: 600 },
        on_path: { shape: "circle", side: "inside" },
      }),
      textLayer({
        id: "wave",
        text: "Along a wave of path data",
        x: 210,
        y: 20,
        width: 180,
        height: 80,
        color: "#2A9D8F",
        font: { family: "Lora", size: 15, style: "italic" },
        on_path: {
          shape: "path",
          d: "M0 50 C 45 0, 90 0, 90 40 S 135 80, 180 30",
          align: "start",
          start_offset: 4,
        },
      }),
      textLayer({
        id: "arc",
        text: "Outlined gradient",
        x: 215,
        y: 125,
        width: 170,
        height: 170,
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#F4A261" },
            { offset: 1, color: "#E63946" },
          ],
        },
        stroke: { width: 1.5, color: "#1D3557" },
        font: { family: "Inter", size: 22, weight: 800 },
        on_path: { shape: "arc", from: -70, to: 70, align: "end", start_offset: -6 },
      }),
    ],
    { background: "#F1FAEE" },
  );

const badge = (fit?: TextLayerT["fit"]) =>
  documentOf(
    [
      shapeLayer({ id: "ring", shape: "ellipse", x: 50, y: 50, width: 100, height: 100, fill: "#E9C46A" }),
      textLayer({
        id: "name",
        text: "Design text",
        x: 40,
        y: 40,
        width: 120,
        height: 120,
        color: "#264653",
        font: { family: "Inter", size: 18, weight: 700 },
        on_path: { shape: "arc", from: -90, to: 90 },
        ...(fit === undefined ? {} : { fit }),
        bind: { text: "name" },
      }),
    ],
    { width: 200, height: 140, background: "#FFFFFF", slots: [{ name: "name", type: "text" }] },
  );

/** A rich slot's runs on an arc: a bold word and a word in its own colour, the rest in the layer's gradient. */
const rich = () =>
  documentOf(
    [
      textLayer({
        id: "line",
        text: 'Made with <b>care</b> in <color value="#E63946">Lisbon</color>',
        x: 20,
        y: 30,
        width: 260,
        height: 260,
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#1D3557" },
            { offset: 1, color: "#2A9D8F" },
          ],
        },
        font: { family: "Inter", size: 26 },
        on_path: { shape: "arc", from: -80, to: 80 },
        bind: { text: "line" },
      }),
    ],
    { width: 300, height: 160, background: "#FFFFFF", slots: [{ name: "line", type: "text", rich: true }] },
  );

/**
 * Decorations along paths: round a disc, an underline, a strike-through and a marked word (an inline
 * style's background); along a wave in a gradient, an underline in the layer's paint, one in a run's
 * own colour, a strike-through and a marked word; along a curve, a plain layer's own underline.
 */
const decorated = () => ({
  ...documentOf(
    [
      shapeLayer({ id: "disc", shape: "ellipse", x: 40, y: 40, width: 120, height: 120, fill: "#E9F5F2" }),
      textLayer({
        id: "ring",
        text: "",
        x: 20,
        y: 20,
        width: 160,
        height: 160,
        color: "#1D3557",
        font: { family: "Inter", size: 17, weight: 600 },
        on_path: { shape: "circle" },
        bind: { text: "ring" },
      }),
      textLayer({
        id: "wave",
        text: "",
        x: 212,
        y: 40,
        width: 185,
        height: 120,
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#1D3557" },
            { offset: 1, color: "#2A9D8F" },
          ],
        },
        font: { family: "Lora", size: 18 },
        on_path: { shape: "path", d: "M0 70 C 45 10, 90 10, 95 55 S 140 110, 185 40", align: "start" },
        bind: { text: "wave" },
      }),
      textLayer({
        id: "plain",
        text: "The layer underlined",
        x: 20,
        y: 170,
        width: 190,
        height: 30,
        color: "#6D28D9",
        font: { family: "Inter", size: 14 },
        underline: true,
        on_path: { shape: "path", d: "M0 22 Q 95 2, 190 22" },
      }),
    ],
    {
      width: 400,
      height: 200,
      background: "#FFFFFF",
      slots: [
        { name: "ring", type: "text", rich: true },
        { name: "wave", type: "text", rich: true },
      ],
    },
  ),
  inline_styles: { mark: { background: "#FDE68A" } },
});

const decoratedValues = {
  ring: "Fresh <u>every</u> day · <s>frozen</s> · <mark>local</mark> ·",
  wave: 'A <u>wave</u> of <color value="#E63946"><u>red</u></color> <s>ink</s> <mark>marked</mark>',
};

describe("text on a path", () => {
  it("refuses what a path cannot draw, with the property's path", () => {
    const bad = documentOf([
      textLayer({
        id: "t",
        text: "Path",
        highlight: { color: "#FFFF00" },
        max_lines: 2,
        underline: true,
        fit: "fill",
        on_path: { shape: "path", d: "M0 0 Q 10" },
      }),
      textLayer({ id: "u", text: "Arc", on_path: { shape: "arc", from: 30, to: 30 } }),
    ]);
    const result = validateDocument(bad);
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors.map((e) => `${e.path}: ${e.message}`);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^frames\[0\]\.layers\[0\]\.on_path\.d: is not SVG path data/),
        "frames[0].layers[0].highlight: text on a path has no lines: a highlight band does not apply",
        "frames[0].layers[0].max_lines: text on a path has no lines: a line limit does not apply",
        expect.stringMatching(/^frames\[0\]\.layers\[0\]\.fit: text on a path only shrinks/),
        'frames[0].layers[1].on_path.to: must differ from "from" (30) by more than 0 and at most 360 degrees',
      ]),
    );
    expect(validateDocument(onPaths()).ok).toBe(true);
  });

  it("sets words round a circle outside and inside, along path data and an arc, with outline and gradient", async () => {
    const { warnings } = await expectGolden(FEATURE, "paths", onPaths());
    expect(codes(warnings)).toEqual([]);
  });

  it("draws the same at scale 2", async () => {
    await expectGolden(FEATURE, "paths-scale-2", onPaths(), { scale: 2 });
  });

  it("draws underline, strike-through and background (rich runs', inline styles', the layer's) along the path", async () => {
    expect(validateDocument(decorated()).ok).toBe(true);
    const { warnings } = await expectGolden(FEATURE, "decorations", decorated(), { values: decoratedValues });
    expect(codes(warnings)).toEqual([]);
    await expectGolden(FEATURE, "decorations-scale-2", decorated(), { values: decoratedValues, scale: 2 });
  });

  it("keeps rich runs' weight and own colour along the path", async () => {
    const { warnings } = await expectGolden(FEATURE, "rich", rich());
    expect(codes(warnings)).toEqual([]);
  });

  it("sets a bound slot's words along the arc; too long, cuts them at its ends or shrinks them to fit", async () => {
    await expectGolden(FEATURE, "bound", badge(), { values: { name: "Ada Lovelace" } });
    const cut = await expectGolden(FEATURE, "bound-cut", badge(), {
      values: { name: "Ada Lovelace, Countess of Lovelace" },
    });
    expect(codes(cut.warnings)).toEqual(["text_truncated"]);
    const shrunk = await expectGolden(FEATURE, "bound-shrunk", badge("shrink"), {
      values: { name: "Ada Lovelace, Countess" },
    });
    expect(codes(shrunk.warnings)).toEqual(["text_shrunk"]);
  });
});
