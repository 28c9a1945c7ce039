import type { SavedTemplateDetail, TemplateDetail } from "../api/client.ts";
import type { FrameT, Layer, RenderWarning, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import type { EditorEngine, FrameRender } from "../engine/load-engine.ts";
import { addLayer, blankDocument, findLayer, uniqueFrameName } from "../model/doc-ops.ts";
import type { FrameGuides } from "../model/geometry.ts";
import { History } from "../model/history.ts";
import { type NewLayerSpec, newLayer } from "../model/new-layer.ts";
import { forgetLegacyPalette, legacyPalette, withLegacyPalette } from "../model/palette.ts";
import { type ResizeNote, resizedFrameCopy } from "../model/resize-design.ts";
import { rememberLaidOutBoxes, type Selection, selectedIds } from "../model/selection.ts";
import { type ArrangeActions, createArrangeActions } from "./arrange-actions.ts";
import { loadPrefs, type Prefs, savePrefs, toggledLocks } from "./prefs.ts";
import { type SaveState, saveFailure } from "./save-state.ts";
import { fitZoom, stepZoom, type Viewport, type ZoomTarget } from "./view.ts";

export type { SaveState };

/** The canvas tool: "select", or the id of the layer tool a drag on a frame creates with (layer-forms/). */
export type Tool = string;

/** The right-hand panel's tabs. */
export type Tab = "design" | "slots" | "preview" | "publish" | "api" | "url";

/** What the last draw of a frame on the canvas reported. */
export interface FrameStatus {
  frame: FrameT;
  warnings: RenderWarning[];
  imageErrors: string[];
  error: string | null;
}

/**
 * Everything the editor shows, as one immutable value: each change makes a new one, so a component
 * reading a part of it (through `useEditor(select)`) renders again only when that part changed.
 */
export interface EditorState {
  templateId: string;
  engine: EditorEngine | null;
  /** The template as the API last returned it (versions, published version). */
  /** The template as the API last answered it (after a save or publish, with its warnings). */
  detail: SavedTemplateDetail | null;
  loaded: boolean;
  loadError: string | null;
  /** The document being edited: the history's present. */
  doc: TemplateDocumentT;
  canUndo: boolean;
  canRedo: boolean;
  /** A pointer gesture (move, resize, rotate) is previewing the document; its release commits it. */
  inGesture: boolean;
  selection: Selection | null;
  /** The text layer being typed into on the canvas, if any. */
  editing: { frame: number; id: string } | null;
  tool: Tool;
  tab: Tab;
  zoom: number;
  /** Align and distribute to the frame rather than the selection. */
  toFrame: boolean;
  /** The preview's slot values, which every frame is drawn with. */
  values: SlotValues;
  /** The scale the Preview tab's warnings are those of. */
  warnScale: number;
  save: SaveState;
  /** The canvas's last draw of each frame, by frame index. */
  status: Readonly<Record<number, FrameStatus>>;
  prefs: Prefs;
  /** What the last copy of a frame to other sizes changed that the designer should check. */
  resizeNotes: readonly ResizeNote[];
}

/** What the store needs from the page: the engine, the API and the window's size. */
export interface EditorDeps {
  loadEngine(): Promise<EditorEngine>;
  loadTemplate(templateId: string): Promise<TemplateDetail>;
  saveTemplate(templateId: string, document: TemplateDocumentT): Promise<SavedTemplateDetail>;
  viewport(): Viewport;
}

/** Zoom commands that need the stage on screen (scroll positions): the canvas attaches them. */
export interface StageControl {
  zoomTo(what: ZoomTarget, fit: number, selection: Box4 | null, frameName: string | undefined): void;
}

type Box4 = { x: number; y: number; width: number; height: number };
type RenderListener = (frameIndex: number, frame: FrameT) => void;

/** After the last change, before the draft is saved. */
export const AUTOSAVE_MS = 700;

/**
 * The editor's state outside React, as tldraw's `Editor` is: the document and its history, the
 * selection, the view (tool, zoom, tab, rulers) and the session (engine, autosave). Components read
 * it through `useEditor` (store/use-editor.ts) and change it only through its methods, so the canvas,
 * the panels, the keyboard shortcuts and the test bridge all make the same edits.
 */
export class EditorStore {
  readonly arrange: ArrangeActions;
  #state: EditorState;
  readonly #history: History<TemplateDocumentT>;
  readonly #deps: EditorDeps;
  readonly #listeners = new Set<() => void>();
  readonly #renderListeners = new Set<RenderListener>();
  #savedDoc: TemplateDocumentT | null = null;
  /** The browser's legacy palette was merged into the open document and awaits its first save. */
  #migratingPalette = false;
  #saveTimer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;
  #stage: StageControl | null = null;

  constructor(templateId: string, deps: EditorDeps) {
    this.#deps = deps;
    this.#history = new History(blankDocument("loading", "Loading"));
    this.#state = {
      templateId,
      engine: null,
      detail: null,
      loaded: false,
      loadError: null,
      doc: this.#history.present,
      canUndo: false,
      canRedo: false,
      inGesture: false,
      selection: null,
      editing: null,
      tool: "select",
      tab: "design",
      zoom: 0.5,
      toFrame: false,
      values: {},
      warnScale: 1,
      save: "saved",
      status: {},
      prefs: loadPrefs(templateId),
      resizeNotes: [],
    };
    this.arrange = createArrangeActions(this);
  }

  // Reading and subscribing (the shape useSyncExternalStore takes).

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getState = (): EditorState => this.#state;

  #update(patch: Partial<EditorState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  /** The frame the selection is on (the first frame when nothing is selected). */
  frameIndex(): number {
    const { selection, doc } = this.#state;
    return Math.max(0, Math.min(selection?.frame ?? 0, doc.frames.length - 1));
  }

  /** The primary selected layer, if any. */
  selectedLayer(): Layer | null {
    const { selection, doc } = this.#state;
    const frame = doc.frames[this.frameIndex()];
    return frame && selection?.layer ? findLayer(frame.layers as Layer[], selection.layer) : null;
  }

  // Session: load, autosave, dispose.

  /** Loads the engine and the template; the editor shows a spinner until then. */
  async load(): Promise<void> {
    const { templateId } = this.#state;
    try {
      const [engine, detail] = await Promise.all([
        this.#deps.loadEngine(),
        this.#deps.loadTemplate(templateId),
      ]);
      if (this.#disposed) return;
      const checked = engine.validate(detail.document);
      const document = checked.ok ? checked.document : (detail.document as TemplateDocumentT);
      // A palette an earlier editor kept in this browser joins the document's once: opened as part of
      // the document (not an undo step), saved by the autosave, then forgotten by the browser.
      const legacy = legacyPalette(templateId);
      const merged = legacy.length > 0 ? withLegacyPalette(document.palette, legacy) : null;
      if (legacy.length > 0 && merged === null) forgetLegacyPalette(templateId);
      this.#migratingPalette = merged !== null;
      this.#history.reset(merged ? { ...document, palette: merged } : document);
      this.#savedDoc = document;
      this.#update({
        engine,
        detail,
        doc: this.#history.present,
        canUndo: false,
        canRedo: false,
        inGesture: false,
        values: { ...(document.sample ?? {}) },
        selection: { frame: 0, layer: null },
        loaded: true,
        zoom: fitZoom(document.frames, this.#deps.viewport()),
      });
      this.#scheduleSave();
    } catch (err) {
      if (!this.#disposed) this.#update({ loadError: err instanceof Error ? err.message : String(err) });
    }
  }

  /** The editor closes: a pending autosave is sent now rather than dropped. */
  dispose(): void {
    this.#disposed = true;
    this.#stage = null;
    if (this.#saveTimer !== null) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = null;
      void this.save();
    }
  }

  #scheduleSave(): void {
    if (this.#saveTimer !== null) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    const { loaded, doc, save } = this.#state;
    if (!loaded || this.#disposed) return;
    if (doc === this.#savedDoc) {
      if (save === "dirty") this.#update({ save: "saved" });
      return;
    }
    if (save !== "dirty") this.#update({ save: "dirty" });
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = null;
      void this.save();
    }, AUTOSAVE_MS);
  }

  /** Saves the draft now (Ctrl+S, before publishing); false when the API refused it. */
  async save(): Promise<boolean> {
    const current = this.#history.present;
    if (current === this.#savedDoc) return true;
    const { templateId } = this.#state;
    this.#update({ save: "saving" });
    try {
      const detail = await this.#deps.saveTemplate(templateId, current);
      this.#savedDoc = current;
      if (this.#migratingPalette) {
        this.#migratingPalette = false;
        forgetLegacyPalette(templateId);
      }
      this.#update({ detail, save: this.#history.present === current ? "saved" : "dirty" });
      return true;
    } catch (err) {
      this.#update({ save: { error: saveFailure(err) } });
      return false;
    }
  }

  /** The template as the API returned it after a publish. */
  setDetail(detail: SavedTemplateDetail): void {
    this.#update({ detail });
  }

  // The document and its history.

  #documentChanged(): void {
    const h = this.#history;
    this.#update({ doc: h.present, canUndo: h.canUndo, canRedo: h.canRedo, inGesture: h.inGesture });
    this.#scheduleSave();
  }

  /** A new document, one undo step (edits with the same key within a second coalesce). */
  setDocument(next: TemplateDocumentT, coalesceKey?: string): void {
    this.#history.set(next, coalesceKey);
    this.#documentChanged();
  }

  /** The document during a drag: one undo step at `commit`. */
  previewDocument(next: TemplateDocumentT): void {
    this.#history.preview(next);
    this.#documentChanged();
  }

  readonly commit = (): void => {
    this.#history.commit();
    this.#documentChanged();
  };

  /** A drag the browser cancelled: its previews are dropped. */
  readonly cancel = (): void => {
    this.#history.cancel();
    this.#documentChanged();
  };

  readonly undo = (): void => {
    if (this.#history.undo()) this.#documentChanged();
  };

  readonly redo = (): void => {
    if (this.#history.redo()) this.#documentChanged();
  };

  // Selection and view.

  select(selection: Selection | null): void {
    this.#update({ selection });
  }

  /** Nothing selected on the current frame, the select tool, no inline typing (Escape). */
  deselect(): void {
    const { selection } = this.#state;
    this.#update({
      tool: "select",
      editing: null,
      selection: selection ? { frame: selection.frame, layer: null } : selection,
    });
  }

  setTool(tool: Tool): void {
    this.#update({ tool });
  }

  setTab(tab: Tab): void {
    this.#update({ tab });
  }

  setEditing(editing: { frame: number; id: string } | null): void {
    this.#update({ editing });
  }

  /** Enter: type into the selected text layer; false when the selection is not one text. */
  editText(): boolean {
    const layer = this.selectedLayer();
    if (layer?.type !== "text" || selectedIds(this.#state.selection).length !== 1) return false;
    this.#update({ editing: { frame: this.frameIndex(), id: layer.id } });
    return true;
  }

  setZoom(zoom: number): void {
    this.#update({ zoom });
  }

  zoomStep(direction: 1 | -1): void {
    this.#update({ zoom: stepZoom(this.#state.zoom, direction) });
  }

  /** The zoom at which every frame fits the window. */
  fitZoom(): number {
    return fitZoom(this.#state.doc.frames, this.#deps.viewport());
  }

  /** The stage on screen, which scrolls for zoomTo; null when it leaves. */
  attachStage(stage: StageControl | null): void {
    this.#stage = stage;
  }

  setToFrame(toFrame: boolean): void {
    this.#update({ toFrame });
  }

  setValues(values: SlotValues): void {
    this.#update({ values });
  }

  setWarnScale(warnScale: number): void {
    this.#update({ warnScale });
  }

  // Preferences of this browser (not the document).

  #setPrefs(patch: Partial<Prefs>): void {
    const prefs = { ...this.#state.prefs, ...patch };
    this.#update({ prefs });
    savePrefs(this.#state.templateId, prefs);
  }

  toggleLocked(ids: readonly string[]): void {
    this.#setPrefs({ locked: toggledLocks(this.#state.prefs.locked, ids) });
  }

  setGuides(frameName: string, guides: FrameGuides): void {
    this.#setPrefs({ guides: { ...this.#state.prefs.guides, [frameName]: guides } });
  }

  setRulers(rulers: boolean): void {
    this.#setPrefs({ rulers });
  }

  // Frames and new layers.

  /**
   * A new layer of a kind (its defaults from layer-forms/) on a frame: in the box dragged out (null:
   * the default size at the frame's centre), with these properties over the defaults; selected, with
   * the select tool.
   */
  createLayer(frameIndex: number, spec: NewLayerSpec, box: Box4 | null, props?: Partial<Layer>): void {
    const doc = this.#state.doc;
    const target = doc.frames[frameIndex];
    if (!target) return;
    const placed = { ...newLayer(doc, target, spec), ...box, ...props } as Layer;
    this.setDocument(addLayer(doc, frameIndex, placed));
    this.#update({ selection: { frame: frameIndex, layer: placed.id }, tool: "select", tab: "design" });
  }

  /** A frame of this size at the end: empty, or a resized copy of frame `from`; every frame kept in view. */
  addFrame(width: number, height: number, name: string, from: number | null): void {
    this.addFrames([{ width, height, name }], from);
  }

  /**
   * Adds frames of these sizes in one step: empty, or copies of frame `from` with its layers placed
   * by their constraints (model/resize-design.ts). The first added frame is selected.
   */
  addFrames(sizes: readonly { width: number; height: number; name: string }[], from: number | null): void {
    const doc = this.#state.doc;
    const source = from === null ? undefined : doc.frames[from];
    const notes: ResizeNote[] = [];
    let frames = doc.frames;
    for (const { width, height, name } of sizes) {
      const frameName = uniqueFrameName({ ...doc, frames }, name);
      const found: ResizeNote[] = [];
      const added = source
        ? resizedFrameCopy(source, frameName, width, height, found)
        : { name: frameName, width, height, background: "#FFFFFF", layers: [] };
      notes.push(...found.map((n) => ({ ...n, layer: `${frameName} / ${n.layer}` })));
      frames = [...frames, added];
    }
    this.setDocument({ ...doc, frames });
    this.#update({
      zoom: fitZoom(frames, this.#deps.viewport()),
      selection: { frame: doc.frames.length, layer: null },
      resizeNotes: notes,
    });
  }

  dismissResizeNotes(): void {
    this.#update({ resizeNotes: [] });
  }

  deleteFrame(frameIndex: number): void {
    const doc = this.#state.doc;
    this.setDocument({ ...doc, frames: doc.frames.filter((_, i) => i !== frameIndex) });
    this.#update({ selection: { frame: 0, layer: null } });
  }

  // The canvas.

  /** Fit, the selection or 100 %, scrolled by the stage. */
  zoomTo(what: ZoomTarget): void {
    const { doc, selection } = this.#state;
    const frame = doc.frames[this.frameIndex()];
    const ids = selectedIds(selection);
    const bounds = frame && ids.length > 0 ? this.arrange.bounds(frame, ids) : null;
    this.#stage?.zoomTo(what, this.fitZoom(), bounds, frame?.name);
  }

  /** The canvas drew a frame (or failed to): its warnings for the Preview tab, and any waiters. */
  frameRendered(frameIndex: number, frame: FrameT, out: FrameRender | null, error: string | null): void {
    if (out !== null) rememberLaidOutBoxes(frame, out.boxes);
    this.#update({
      status: {
        ...this.#state.status,
        [frameIndex]: {
          frame,
          warnings: out?.warnings ?? [],
          imageErrors: out?.imageErrors ?? [],
          error,
        },
      },
    });
    for (const listener of this.#renderListeners) listener(frameIndex, frame);
  }

  /** Called each time the canvas has drawn a frame (with the frame object it drew). */
  onFrameRendered(listener: RenderListener): () => void {
    this.#renderListeners.add(listener);
    return () => this.#renderListeners.delete(listener);
  }
}
