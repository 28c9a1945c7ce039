import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { TOOLS, toolOfKey } from "../src/controls/tools.ts";
import { CREATORS, creatorOf, formOf, MENU_CREATORS, TOOL_CREATORS } from "../src/layer-forms/registry.ts";
import { addLayer, blankDocument } from "../src/model/doc-ops.ts";
import { newLayer } from "../src/model/new-layer.ts";

const src = fileURLToPath(new URL("../src", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe("the editor's layer kinds table (layer-forms/)", () => {
  // Kinds no other part of the editor has a reason to name: adding one like them touches its own
  // file in layer-forms/ and one line of the registry.
  it.each(["barcode", "qr", "rating", "progress", "chart"])(
    "names %s only in files named after it and in the registry",
    (kind) => {
      const quoted = new RegExp(`["'\`]${kind}["'\`]`);
      const naming = sourceFiles(src)
        .filter((file) => quoted.test(readFileSync(file, "utf8")))
        .map((file) => relative(src, file));
      expect(naming.length).toBeGreaterThan(0);
      const elsewhere = naming.filter((file) => {
        const name = basename(file).replace(/\.(ts|tsx)$/, "");
        return name !== kind && file !== join("layer-forms", "registry.ts");
      });
      expect(elsewhere).toEqual([]);
    },
  );

  it("derives the toolbar and the More menu from the table, with their labels, icons and keys", () => {
    expect(TOOLS.map((t) => [t.tool, t.label, t.icon, t.key])).toEqual([
      ["select", "Select", "↖", "V"],
      ["text", "Text", "T", "T"],
      ["image", "Image", "▣", "I"],
      ["rectangle", "Rectangle", "■", "R"],
      ["ellipse", "Ellipse", "●", "E"],
    ]);
    expect(MENU_CREATORS.map((c) => [c.id, c.label, c.icon])).toEqual([
      ["stack", "Stack", "☰"],
      ["line", "Line", "╱"],
      ["polygon", "Polygon", "⬟"],
      ["star", "Star", "★"],
      ["path", "Path", "✎"],
      ["icon", "Icon…", "☺"],
      ["qr", "QR code", "▦"],
      ["barcode", "Barcode", "║"],
      ["rating", "Rating", "☆"],
      ["progress-bar", "Progress bar", "▭"],
      ["progress-ring", "Progress ring", "◔"],
      ["chart", "Chart", "▮"],
    ]);
    expect(TOOL_CREATORS.every((c) => c.key)).toBe(true);
    expect(new Set(CREATORS.map((c) => c.id)).size).toBe(CREATORS.length);
    expect(toolOfKey("r")).toBe("rectangle");
    expect(toolOfKey("v")).toBe("select");
    expect(toolOfKey("q")).toBeUndefined();
    // Only the icon asks something first (its picker).
    expect(CREATORS.filter((c) => c.Picker).map((c) => c.id)).toEqual(["icon"]);
  });

  it("makes each kind's new layer valid, of the type whose form edits it, named after its id base", () => {
    let doc = blankDocument("kinds", "Kinds");
    const frame = doc.frames[0];
    if (!frame) throw new Error("no frame");
    for (const creator of CREATORS) {
      const layer = newLayer(doc, frame, creator);
      expect(layer.id).toBe(`${creator.idBase}-1`);
      expect(formOf(layer).creators).toContain(creator);
      doc = addLayer(doc, 0, layer);
    }
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("keeps square kinds square and centres a rating's symbols in the box", () => {
    const frame = { name: "main", width: 1000, height: 500, background: "#FFFFFF", layers: [] };
    const doc = { ...blankDocument("k", "K"), frames: [frame] };
    const make = (id: string) => {
      const creator = creatorOf(id);
      if (!creator) throw new Error(`no creator ${id}`);
      return newLayer(doc, frame, creator);
    };
    const qr = make("qr");
    expect([qr.width, qr.height]).toEqual([200, 200]);
    expect(qr.x + qr.width / 2).toBe(500);
    const rating = make("rating");
    expect(rating.width).toBe(Math.round(rating.height * 5.8));
    expect(rating.x + rating.width / 2).toBeCloseTo(500, 0);
    // A new text box has auto height: the width drawn, the height of its text.
    expect(make("text")).toMatchObject({ type: "text", layout: { height: "hug" } });
  });

  it("opens a type the table does not know with the read-only form", () => {
    const layer = { id: "x", type: "hologram", x: 0, y: 0, width: 1, height: 1 };
    const form = formOf(layer as never);
    expect([form.label(layer as never), form.icon(layer as never), form.creators]).toEqual([
      "hologram",
      "?",
      undefined,
    ]);
  });
});
