import { isRecord } from "../validate-paths.ts";
import { copyProperties, setProperty } from "./copy.ts";

/**
 * Version 0: the pre-release draft format (no `version` field). One implicit frame: `width`, `height`,
 * `background_color` and `layers` sit at the top level. Colours are flat `*_color` fields, text fonts are
 * flat `font_*` fields, groups hold `children`, and a layer binds at most its main property with
 * `slot` (text -> text, image -> src, shape -> fill) plus, for text, its colour with `color_slot`.
 *
 * The migration never throws and never drops what it does not understand: malformed or unknown fields
 * are carried into the v1 document so that v1 validation reports them at their new paths.
 */

const MAIN_PROPERTY: Record<string, string> = { text: "text", image: "src", shape: "fill" };

const FONT_FIELDS: readonly [string, string][] = [
  ["font_family", "family"],
  ["font_weight", "weight"],
  ["font_style", "style"],
  ["font_size", "size"],
  ["line_height", "line_height"],
  ["letter_spacing", "letter_spacing"],
];

export function upgradeV0ToV1(doc: Record<string, unknown>): Record<string, unknown> {
  const frame: Record<string, unknown> = { name: "default" };
  setProperty(frame, "width", doc.width);
  setProperty(frame, "height", doc.height);
  setProperty(frame, "background", doc.background_color);
  frame.layers = Array.isArray(doc.layers) ? doc.layers.map(upgradeLayer) : doc.layers;

  const out: Record<string, unknown> = { version: 1 };
  copyProperties(doc, out, ["version", "width", "height", "background_color", "layers"]);
  out.frames = [frame];
  return out;
}

function upgradeLayer(layer: unknown): unknown {
  if (!isRecord(layer)) return layer;
  const type = typeof layer.type === "string" ? layer.type : "";
  const out = copyProperties(layer, {}, [
    "slot",
    "color_slot",
    "text_color",
    "fill_color",
    "stroke_color",
    "stroke_width",
    "children",
    ...FONT_FIELDS.map(([from]) => from),
  ]);

  const bind: Record<string, unknown> = {};
  const main = Object.hasOwn(MAIN_PROPERTY, type) ? MAIN_PROPERTY[type] : undefined;
  if (main !== undefined) setProperty(bind, main, layer.slot);
  else setProperty(out, "slot", layer.slot);
  if (type === "text") setProperty(bind, "color", layer.color_slot);
  else setProperty(out, "color_slot", layer.color_slot);
  if (Object.keys(bind).length > 0) out.bind = bind;

  if (type === "text") {
    const font: Record<string, unknown> = {};
    for (const [from, to] of FONT_FIELDS) setProperty(font, to, layer[from]);
    out.font = font;
    setProperty(out, "color", layer.text_color);
  } else if (type === "shape") {
    // v0 drew no fill when fill_color was absent; v1 says so explicitly with null.
    out.fill = layer.fill_color === undefined ? null : layer.fill_color;
    if (layer.stroke_color !== undefined || layer.stroke_width !== undefined) {
      const stroke: Record<string, unknown> = {};
      setProperty(stroke, "color", layer.stroke_color);
      setProperty(stroke, "width", layer.stroke_width);
      out.stroke = stroke;
    }
  } else if (type === "group") {
    out.layers = Array.isArray(layer.children) ? layer.children.map(upgradeLayer) : layer.children;
  }
  // Fields of other layer kinds are kept as they were, so v1 validation names them.
  for (const [from] of FONT_FIELDS) if (type !== "text") setProperty(out, from, layer[from]);
  if (type !== "text") setProperty(out, "text_color", layer.text_color);
  if (type !== "shape") {
    setProperty(out, "fill_color", layer.fill_color);
    setProperty(out, "stroke_color", layer.stroke_color);
    setProperty(out, "stroke_width", layer.stroke_width);
  }
  if (type !== "group") setProperty(out, "children", layer.children);
  return out;
}
