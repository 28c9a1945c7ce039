import type { TemplateDocumentT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  addLayer,
  blankDocument,
  duplicateLayer,
  moveLayer,
  newLayer,
  placeLayer,
  removeLayer,
  renameBindings,
} from "../../../editor/src/editor/doc-ops.ts";
import { toModifications } from "../../../editor/src/editor/modifications.ts";

function withLayers(): TemplateDocumentT {
  let doc = blankDocument("doc-ops", "Doc ops");
  const frame = doc.frames[0];
  if (!frame) throw new Error("no frame");
  for (const kind of ["text", "image", "rectangle", "ellipse"] as const)
    doc = addLayer(doc, 0, newLayer(doc, frame, kind));
  return doc;
}

const ids = (doc: TemplateDocumentT) => doc.frames[0]?.layers.map((l) => l.id);

describe("editor document operations", () => {
  it("new layers of every tool make a valid document v1 with unique ids", () => {
    const doc = withLayers();
    expect(validateDocument(doc).ok).toBe(true);
    expect(ids(doc)).toEqual(["text-1", "image-1", "rect-1", "ellipse-1"]);
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
    expect(dup.id).toBe("shape-1");
    expect(ids(dup.doc)).toEqual(["text-1", "image-1", "rect-1", "shape-1", "ellipse-1"]);
    const copy = dup.doc.frames[0]?.layers[3];
    const original = doc.frames[0]?.layers[2];
    expect(copy?.x).toBe((original?.x ?? 0) + 20);
    expect(validateDocument(dup.doc).ok).toBe(true);
    expect(ids(removeLayer(doc, 0, "image-1"))).toEqual(["text-1", "rect-1", "ellipse-1"]);
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
