import type { TemplateDocumentT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { CREATORS, creatorOf } from "../src/layer-forms/registry.ts";
import {
  addLayer,
  blankDocument,
  duplicateLayer,
  moveLayer,
  placeLayer,
  removeLayer,
  renameBindings,
} from "../src/model/doc-ops.ts";
import { toModifications } from "../src/model/modifications.ts";
import { newLayer } from "../src/model/new-layer.ts";
import { cssPaint, describePaint } from "../src/model/paint-view.ts";
import { shiftStopBindings } from "../src/model/stop-bindings.ts";

function withLayers(): TemplateDocumentT {
  let doc = blankDocument("doc-ops", "Doc ops");
  const frame = doc.frames[0];
  if (!frame) throw new Error("no frame");
  for (const tool of ["text", "image", "rectangle", "ellipse"]) {
    const creator = creatorOf(tool);
    if (!creator) throw new Error(`no tool ${tool}`);
    doc = addLayer(doc, 0, newLayer(doc, frame, creator));
  }
  return doc;
}

const ids = (doc: TemplateDocumentT) => doc.frames[0]?.layers.map((l) => l.id);

describe("editor document operations", () => {
  it("new layers of every tool make a valid document v1 with unique ids", () => {
    const doc = withLayers();
    expect(validateDocument(doc).ok).toBe(true);
    expect(ids(doc)).toEqual(["text-1", "image-1", "rect-1", "ellipse-1"]);
  });

  it("every kind of the add-layer menu makes a valid document v2", () => {
    let doc = blankDocument("kinds", "Kinds");
    const frame = doc.frames[0];
    if (!frame) throw new Error("no frame");
    for (const creator of CREATORS) doc = addLayer(doc, 0, newLayer(doc, frame, creator));
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([]);
    expect(ids(doc)).toContain("qr-1");
  });

  it("moves gradient stop bindings with their stops", () => {
    const bind = { fill: "a", "fill.stops[0].color": "b", "fill.stops[2].color": "c", "stroke.color": "d" };
    expect(shiftStopBindings(bind, "fill", 1, 1)).toEqual({
      fill: "a",
      "fill.stops[0].color": "b",
      "fill.stops[3].color": "c",
      "stroke.color": "d",
    });
    expect(shiftStopBindings(bind, "fill", 0, -1)).toEqual({
      fill: "a",
      "fill.stops[1].color": "c",
      "stroke.color": "d",
    });
  });

  it("reorders: forward/back by one, and drop at a position", () => {
    const doc = withLayers();
    expect(ids(moveLayer(doc, 0, "text-1", 1))).toEqual(["image-1", "text-1", "rect-1", "ellipse-1"]);
    expect(ids(moveLayer(doc, 0, "text-1", -1))).toEqual(ids(doc));
    expect(ids(placeLayer(doc, 0, "ellipse-1", 0))).toEqual(["ellipse-1", "text-1", "image-1", "rect-1"]);
  });

  it("duplicates above the original with a new id and an offset; deletes", () => {
    const doc = withLayers();
    const dup = duplicateLayer(doc, 0, "rect-1");
    // Named after the original: rect-1 gives rect-2.
    expect(dup.id).toBe("rect-2");
    expect(ids(dup.doc)).toEqual(["text-1", "image-1", "rect-1", "rect-2", "ellipse-1"]);
    const copy = dup.doc.frames[0]?.layers[3];
    const original = doc.frames[0]?.layers[2];
    expect(copy?.x).toBe((original?.x ?? 0) + 20);
    expect(validateDocument(dup.doc).ok).toBe(true);
    expect(ids(removeLayer(doc, 0, "image-1"))).toEqual(["text-1", "rect-1", "ellipse-1"]);
  });

  it("duplicates v2 layers with every property of their kind, and groups with fresh child ids", () => {
    const gradient = {
      type: "linear" as const,
      angle: 90,
      stops: [
        { offset: 0, color: "#2563EB" },
        { offset: 1, color: "#F43F5E" },
      ],
    };
    const badge = {
      id: "badge",
      type: "polygon" as const,
      sides: 6,
      x: 10,
      y: 10,
      width: 100,
      height: 100,
      fill: gradient,
      shadows: [{ x: 0, y: 4, blur: 8, color: "#00000055" }],
      blend_mode: "multiply" as const,
    };
    let doc = blankDocument("v2", "V2");
    doc = addLayer(doc, 0, badge);
    doc = addLayer(doc, 0, {
      id: "g",
      type: "group",
      x: 0,
      y: 0,
      width: 200,
      height: 200,
      layers: [{ ...structuredClone(badge), id: "inner" }],
    });
    const dup = duplicateLayer(doc, 0, "badge");
    expect(dup.id).toBe("badge-1");
    expect(dup.doc.frames[0]?.layers[1]).toEqual({ ...badge, id: "badge-1", x: 30, y: 30 });
    const group = duplicateLayer(dup.doc, 0, "g");
    expect(group.id).toBe("g-1");
    expect(group.doc.frames[0]?.layers[3]).toMatchObject({
      id: "g-1",
      layers: [{ ...badge, id: "g-1-1" }],
    });
    expect(validateDocument(group.doc).ok).toBe(true);
    // A layer type this editor does not know is carried along untouched.
    const unknown = { id: "q", type: "hologram", x: 0, y: 0, width: 5, height: 5, beam: { r: 1 } };
    const odd = addLayer(doc, 0, unknown as unknown as TemplateDocumentT["frames"][0]["layers"][0]);
    expect(duplicateLayer(odd, 0, "q").doc.frames[0]?.layers[3]).toEqual({
      ...unknown,
      id: "q-1",
      x: 20,
      y: 20,
    });
  });

  it("describes gradients for their read-only swatch", () => {
    const linear = {
      type: "linear",
      stops: [
        { offset: 0, color: "#000000" },
        { offset: 0.5, color: "#FF0000" },
        { offset: 1, color: "#FFFFFF" },
      ],
    };
    expect(describePaint(linear)).toBe("linear gradient, 3 stops");
    expect(cssPaint(linear)).toBe("linear-gradient(180deg, #000000 0%, #FF0000 50%, #FFFFFF 100%)");
    expect(cssPaint({ type: "radial", center: { x: 0.25, y: 0.5 }, stops: linear.stops.slice(1) })).toBe(
      "radial-gradient(circle at 25% 50%, #FF0000 50%, #FFFFFF 100%)",
    );
    expect(describePaint("#112233")).toBe("#112233");
  });

  it("renaming a slot renames its bindings and sample value; deleting one unbinds", () => {
    let doc = withLayers();
    doc = {
      ...doc,
      slots: [{ name: "title", type: "text" }],
      sample: { title: "Hi" },
      frames: doc.frames.map((f) => ({
        ...f,
        layers: f.layers.map((l) => (l.id === "text-1" ? { ...l, bind: { text: "title" } } : l)),
      })),
    };
    const renamed = renameBindings(doc, "title", "headline");
    expect(renamed.frames[0]?.layers[0]?.bind).toEqual({ text: "headline" });
    expect(renamed.sample).toEqual({ headline: "Hi" });
    const unbound = renameBindings(doc, "title", null);
    expect(unbound.frames[0]?.layers[0]?.bind).toBeUndefined();
  });

  it("turns slot values into API modifications by slot type", () => {
    const doc: TemplateDocumentT = {
      ...blankDocument("mods", "Mods"),
      slots: [
        { name: "t", type: "text" },
        { name: "i", type: "image" },
        { name: "c", type: "color" },
      ],
    };
    expect(toModifications(doc, { t: "Hello", i: "asset://ast_abc", c: "#112233", unknown: "x" })).toEqual([
      { name: "t", text: "Hello" },
      { name: "i", image_url: "ast_abc" },
      { name: "c", color: "#112233" },
    ]);
  });
});
