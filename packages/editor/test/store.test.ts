import type { TemplateDocumentT } from "@pictor/engine";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TemplateDetail } from "../src/api/client.ts";
import type { EditorEngine } from "../src/engine/load-engine.ts";
import type { NewLayerSpec } from "../src/model/new-layer.ts";
import { AUTOSAVE_MS, type EditorDeps, EditorStore } from "../src/store/editor-store.ts";
import { doc, sq } from "./support.ts";

/** A store over an in-memory "API": each PUT is recorded and answered like the server would. */
function setup(document: TemplateDocumentT = doc([sq("a", 100, 100), sq("b", 300, 300)])) {
  const saved: TemplateDocumentT[] = [];
  let refuse: Error | null = null;
  const detail = (d: TemplateDocumentT) =>
    ({
      id: "tpl_1",
      key: d.key,
      name: d.name,
      published_version: null,
      document: d,
    }) as unknown as TemplateDetail;
  const deps: EditorDeps = {
    loadEngine: async () =>
      ({
        validate: (d: unknown) => ({ ok: true, document: d as TemplateDocumentT }),
      }) as unknown as EditorEngine,
    loadTemplate: async () => detail(document),
    saveTemplate: async (_id, d) => {
      if (refuse) throw refuse;
      saved.push(d);
      return detail(d);
    },
    viewport: () => ({ width: 1440, height: 900 }),
  };
  const store = new EditorStore("tpl_1", deps);
  return {
    store,
    saved,
    refuseSaves(error: Error | null) {
      refuse = error;
    },
  };
}

/** A kind's new-layer defaults, as layer-forms/ gives them. */
const rectangle: NewLayerSpec = {
  idBase: "rect",
  heightShare: 0.3,
  maxHeight: 320,
  make: (id, box) => ({ id, type: "shape", shape: "rectangle", ...box, fill: "#6366F1" }),
};

const ids = (store: EditorStore) => store.getState().doc.frames[0]?.layers.map((l) => l.id);

describe("editor store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("loads the template: the document, its sample values, the first frame selected, a zoom that fits", async () => {
    const { store } = setup({ ...doc([sq("a", 0, 0)]), sample: { title: "Hi" } });
    const seen: boolean[] = [];
    store.subscribe(() => seen.push(store.getState().loaded));
    expect(store.getState().loaded).toBe(false);
    await store.load();
    const s = store.getState();
    expect(s.loaded).toBe(true);
    expect(s.engine).not.toBeNull();
    expect(ids(store)).toEqual(["a"]);
    expect(s.values).toEqual({ title: "Hi" });
    expect(s.selection).toEqual({ frame: 0, layer: null });
    // 1440 wide, minus the side panels and margins, for a 1000 px frame.
    expect(s.zoom).toBe(0.77);
    expect(s.save).toBe("saved");
    expect(seen).toContain(true);
  });

  it("autosaves 0.7 s after the last change, once, and says so", async () => {
    const { store, saved } = setup();
    await store.load();
    store.arrange.selectAll();
    store.arrange.nudge(5, 0);
    expect(store.getState().save).toBe("dirty");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 100);
    store.arrange.nudge(5, 0); // the timer starts again
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS - 100);
    expect(saved).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(saved).toHaveLength(1);
    expect(saved[0]?.frames[0]?.layers[0]?.x).toBe(110);
    expect(store.getState().save).toBe("saved");
  });

  it("keeps a refused save's reason and saves again on the next change", async () => {
    const { store, saved, refuseSaves } = setup();
    await store.load();
    refuseSaves(new Error("offline"));
    store.setDocument({ ...store.getState().doc, name: "Renamed" }, "doc-name");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(store.getState().save).toEqual({ error: "Error: offline" });
    refuseSaves(null);
    store.setDocument({ ...store.getState().doc, name: "Renamed again" }, "doc-name");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(saved.map((d) => d.name)).toEqual(["Renamed again"]);
  });

  it("undoes and redoes edits, and an undo back to the saved document needs no save", async () => {
    const { store, saved } = setup();
    await store.load();
    store.select({ frame: 0, layer: "a" });
    store.arrange.remove();
    expect(ids(store)).toEqual(["b"]);
    expect(store.getState().canUndo).toBe(true);
    store.undo();
    expect(ids(store)).toEqual(["a", "b"]);
    expect(store.getState().canRedo).toBe(true);
    expect(store.getState().save).toBe("saved");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_MS);
    expect(saved).toHaveLength(0);
    store.redo();
    expect(ids(store)).toEqual(["b"]);
  });

  it("makes a drag one undo step (previews, then commit) and drops a cancelled one", async () => {
    const { store } = setup();
    await store.load();
    const box = (x: number) => new Map([["a", { x, y: 100, width: 100, height: 100, rotation: 0 }]]);
    expect(store.arrange.previewBoxes(0, box(120))).toBe(true);
    expect(store.getState().inGesture).toBe(true);
    expect(store.arrange.previewBoxes(0, box(140))).toBe(true);
    expect(store.getState().doc.frames[0]?.layers[0]?.x).toBe(140);
    // A move to where the layer already is changes nothing (the canvas is not redrawn).
    const present = store.getState().doc;
    expect(store.arrange.previewBoxes(0, box(140))).toBe(false);
    expect(store.getState().doc).toBe(present);
    store.commit();
    expect(store.getState().inGesture).toBe(false);
    store.arrange.previewBoxes(0, box(500));
    store.cancel();
    expect(store.getState().doc.frames[0]?.layers[0]?.x).toBe(140);
    store.undo();
    expect(store.getState().doc.frames[0]?.layers[0]?.x).toBe(100);
    expect(store.getState().canUndo).toBe(false);
  });

  it("creates a layer with a tool: selected, back to the select tool, on the Design tab", async () => {
    const { store } = setup();
    await store.load();
    store.setTool("rectangle");
    store.setTab("preview");
    store.createLayer(0, rectangle, { x: 10, y: 20, width: 30, height: 40 });
    const s = store.getState();
    expect(ids(store)).toEqual(["a", "b", "rect-1"]);
    expect(s.doc.frames[0]?.layers[2]).toMatchObject({ type: "shape", x: 10, y: 20, width: 30, height: 40 });
    expect(s.selection).toEqual({ frame: 0, layer: "rect-1" });
    expect([s.tool, s.tab]).toEqual(["select", "design"]);
    expect(store.selectedLayer()?.id).toBe("rect-1");
  });

  it("adds a frame (empty or a resized copy), selects it, and deletes it", async () => {
    const { store } = setup();
    await store.load();
    store.addFrame(500, 300, "main", 0);
    const s = store.getState();
    expect(s.doc.frames.map((f) => [f.name, f.width, f.height])).toEqual([
      ["main", 1000, 600],
      ["main-2", 500, 300],
    ]);
    expect(s.doc.frames[1]?.layers.map((l) => l.width)).toEqual([50, 50]);
    expect(s.selection).toEqual({ frame: 1, layer: null });
    store.deleteFrame(1);
    expect(store.getState().doc.frames).toHaveLength(1);
    expect(store.getState().selection).toEqual({ frame: 0, layer: null });
  });

  it("locks layers in this browser only: arrangement leaves them where they are", async () => {
    const { store } = setup();
    await store.load();
    store.toggleLocked(["a"]);
    expect(store.getState().prefs.locked.has("a")).toBe(true);
    store.arrange.selectAll();
    store.arrange.nudge(0, 10);
    expect(store.getState().doc.frames[0]?.layers.map((l) => l.y)).toEqual([100, 310]);
    store.toggleLocked(["a", "b"]); // one of them unlocked: both locked
    expect([...store.getState().prefs.locked].sort()).toEqual(["a", "b"]);
    store.toggleLocked(["a", "b"]);
    expect(store.getState().prefs.locked.size).toBe(0);
  });

  it("steps the zoom, starts typing into one selected text only, and deselects with the select tool", async () => {
    const text = {
      id: "t",
      type: "text",
      x: 0,
      y: 0,
      width: 200,
      height: 50,
      text: "Hi",
      font: { family: "Inter", size: 20 },
      color: "#000000",
    };
    const { store } = setup(doc([text, sq("a", 0, 0)]));
    await store.load();
    store.setZoom(0.5);
    store.zoomStep(1);
    expect(store.getState().zoom).toBe(0.67);
    store.zoomStep(-1);
    store.zoomStep(-1);
    expect(store.getState().zoom).toBe(0.33);
    store.select({ frame: 0, layer: "a" });
    expect(store.editText()).toBe(false);
    store.select({ frame: 0, layer: "t" });
    expect(store.editText()).toBe(true);
    expect(store.getState().editing).toEqual({ frame: 0, id: "t" });
    store.setTool("ellipse");
    store.deselect();
    const s = store.getState();
    expect([s.tool, s.editing, s.selection]).toEqual(["select", null, { frame: 0, layer: null }]);
  });

  it("tells listeners of each frame the canvas drew, with its warnings for the Preview tab", async () => {
    const { store } = setup();
    await store.load();
    const frame = store.getState().doc.frames[0];
    if (!frame) throw new Error("no frame");
    const drawn: number[] = [];
    const stop = store.onFrameRendered((i) => drawn.push(i));
    store.frameRendered(0, frame, null, "image_fetch_failed");
    stop();
    store.frameRendered(0, frame, null, null);
    expect(drawn).toEqual([0]);
    expect(store.getState().status[0]?.error).toBeNull();
  });

  it("sends a pending autosave when the editor closes", async () => {
    const { store, saved } = setup();
    await store.load();
    store.setDocument({ ...store.getState().doc, name: "Closing" }, "doc-name");
    store.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(saved.map((d) => d.name)).toEqual(["Closing"]);
  });
});
