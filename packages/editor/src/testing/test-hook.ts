import type { FrameT, Layer, SlotValues, TemplateDocumentT } from "../engine/engine-types.ts";
import { lastRenderTimings, loadEditorEngine, rendersInFlight } from "../engine/load-engine.ts";
import { sha256Hex, toBase64 } from "../engine/pixels.ts";
import { findLayer, updateLayer } from "../model/doc-ops.ts";
import { activeEditor } from "../store/active-editor.ts";
import type { EditorStore } from "../store/editor-store.ts";
import { takeLatencies } from "../store/input-latency.ts";

/**
 * `window.__pictor`: what the end-to-end tests and the editor benchmark read from the page. Only the
 * test entry (testing/entry.ts, built by `buildEditor({ testBridge: true })`) installs it; the
 * production bundle has none of this module. The
 * pixels are the engine's own RGBA (premultiplied, equal to straight RGBA where opaque), not the
 * canvas's, so a comparison with API output is a comparison of engine outputs.
 */
export interface RenderRGBAOptions {
  frame: string;
  values?: SlotValues;
  scale?: number;
  /** Also return the bytes, base64. */
  bytes?: boolean;
  /** Default: the document open in the editor. */
  document?: unknown;
  /** Seconds into an animated frame; absent: its poster moment (what a still render draws). */
  time?: number;
}

export interface PictorHook {
  ready(): Promise<true>;
  renderRGBA(options: RenderRGBAOptions): Promise<{
    sha256: string;
    width: number;
    height: number;
    opaque: boolean;
    warnings: { code: string; slot: string | null; message: string }[];
    imageErrors: string[];
    base64?: string;
  }>;
  currentDocument(): TemplateDocumentT | null;
  /**
   * Applies a layer patch through the editor's own state (as a properties-panel edit does) and
   * resolves when every frame canvas shows the new pixels, with the time that took in ms.
   */
  editLayer(layerId: string, patch: Record<string, unknown>): Promise<number>;
  /** Validation and engine draw time of the most recent render, ms. */
  lastRenderTimings(): { validateMs: number; drawMs: number };
  /** Inline typing: ms from each input event to its pixels on the canvas since the last call. */
  typingLatencies(): number[];
  /** Canvas drags: ms from each pointer move to its pixels on the canvas since the last call. */
  dragLatencies(): number[];
  /** Engine renders started and not yet finished (0: the editor draws nothing now). */
  rendersInFlight(): number;
}

/**
 * A layer patch through the editor's own history (as a properties-panel edit is), resolved when the
 * canvas has drawn the edited frame, with the time that took in ms.
 */
function editLayer(editor: EditorStore, layerId: string, patch: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const doc = editor.getState().doc;
  const fi = doc.frames.findIndex((f) => findLayer(f.layers as Layer[], layerId));
  if (fi < 0) return Promise.reject(new Error(`no layer ${layerId}`));
  const next = updateLayer(doc, fi, layerId, (l) => ({ ...l, ...patch }) as Layer);
  const target = next.frames[fi];
  return new Promise<number>((resolve) => {
    const stop = editor.onFrameRendered((i: number, f: FrameT) => {
      if (i !== fi || f !== target) return;
      stop();
      resolve(performance.now() - started);
    });
    editor.setDocument(next);
  });
}

export function installTestHook(): void {
  const hook: PictorHook = {
    async ready() {
      await loadEditorEngine();
      return true;
    },
    async renderRGBA(options) {
      const engine = await loadEditorEngine();
      const document = options.document ?? activeEditor()?.getState().doc;
      if (!document) throw new Error("no document open in the editor");
      const out = await engine.render(document, {
        frame: options.frame,
        values: options.values,
        scale: options.scale ?? 1,
        ...(options.time === undefined ? {} : { time: options.time }),
      });
      return {
        sha256: await sha256Hex(out.pixels),
        width: out.width,
        height: out.height,
        opaque: out.opaque,
        warnings: out.warnings.map(({ code, slot, message }) => ({ code, slot, message })),
        imageErrors: out.imageErrors,
        ...(options.bytes ? { base64: toBase64(out.pixels) } : {}),
      };
    },
    currentDocument: () => activeEditor()?.getState().doc ?? null,
    lastRenderTimings,
    typingLatencies: () => takeLatencies("typing"),
    dragLatencies: () => takeLatencies("drag"),
    rendersInFlight,
    editLayer(layerId, patch) {
      const editor = activeEditor();
      if (!editor) return Promise.reject(new Error("no document open in the editor"));
      return editLayer(editor, layerId, patch);
    },
  };
  (window as unknown as { __pictor: PictorHook }).__pictor = hook;
}
