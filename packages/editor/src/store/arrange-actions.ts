import type { Layer, TemplateDocumentT } from "../engine/engine-types.ts";
import {
  type AlignEdge,
  alignLayers,
  applyBoxes,
  distributeLayers,
  groupLayers,
  reorderLayers,
  selectionBounds,
  translateLayers,
  ungroupLayer,
  type ZOrder,
} from "../model/arrange.ts";
import { copyPayload, pastePayload } from "../model/clipboard.ts";
import { readClipboard, writeClipboard } from "../model/clipboard-io.ts";
import { duplicateLayer, findLayer, removeLayer, updateLayer } from "../model/doc-ops.ts";
import type { Box } from "../model/geometry.ts";
import { childLayers } from "../model/layer-tree.ts";
import { type Selection, selectedIds, selectLayers } from "../model/selection.ts";

/** What the actions need of the editor store (store/editor-store.ts). */
interface Editor {
  getState(): {
    doc: TemplateDocumentT;
    selection: Selection | null;
    /** Align and distribute to the frame rather than the selection. */
    toFrame: boolean;
    /** Ids of locked layers (the editor's own state, not part of the document). */
    prefs: { locked: ReadonlySet<string> };
  };
  setDocument(next: TemplateDocumentT, coalesceKey?: string): void;
  previewDocument(next: TemplateDocumentT): void;
  select(selection: Selection | null): void;
  toggleLocked(ids: readonly string[]): void;
}

/**
 * What the editor does to the selected layers: arrange (align, distribute, z-order, group), nudge,
 * delete, duplicate, copy, cut and paste, lock and hide. Every action reads the latest document and
 * selection and is one undo step; each returns false when there was nothing to act on.
 */
export function createArrangeActions(editor: Editor) {
  function ctx() {
    const s = editor.getState();
    const doc = s.doc;
    const fi = Math.max(0, Math.min(s.selection?.frame ?? 0, doc.frames.length - 1));
    const ids = selectedIds(s.selection).filter(
      (id) => doc.frames[fi] && findLayer(doc.frames[fi].layers as Layer[], id),
    );
    // Locked layers are not moved by arrangement (they can still be selected in the layers panel).
    const free = ids.filter((id) => !s.prefs.locked.has(id));
    return { toFrame: s.toFrame, doc, fi, ids, free };
  }

  function set(next: TemplateDocumentT, key?: string) {
    editor.setDocument(next, key);
  }

  function setSelection(selection: Selection | null) {
    editor.select(selection);
  }

  return {
    align(edge: AlignEdge): boolean {
      const { toFrame, doc, fi, free } = ctx();
      if (free.length === 0) return false;
      set(alignLayers(doc, fi, free, edge, toFrame));
      return true;
    },
    distribute(axis: "x" | "y"): boolean {
      const { toFrame, doc, fi, free } = ctx();
      if (free.length === 0) return false;
      set(distributeLayers(doc, fi, free, axis, toFrame));
      return true;
    },
    order(op: ZOrder): boolean {
      const { doc, fi, ids } = ctx();
      if (ids.length === 0) return false;
      set(reorderLayers(doc, fi, ids, op));
      return true;
    },
    group(): boolean {
      const { doc, fi, ids } = ctx();
      if (ids.length === 0) return false;
      const out = groupLayers(doc, fi, ids);
      if (!out) return true;
      set(out.doc);
      setSelection({ frame: fi, layer: out.id });
      return true;
    },
    ungroup(): boolean {
      const { doc, fi, ids } = ctx();
      const groups = ids.filter((id) => {
        const l = doc.frames[fi] && findLayer(doc.frames[fi].layers as Layer[], id);
        return l && childLayers(l) !== null;
      });
      if (groups.length === 0) return ids.length > 0;
      let next = doc;
      const freed: string[] = [];
      for (const g of groups) {
        const out = ungroupLayer(next, fi, g);
        if (out) {
          next = out.doc;
          freed.push(...out.ids);
        }
      }
      set(next);
      setSelection(selectLayers(fi, freed));
      return true;
    },
    nudge(dx: number, dy: number): boolean {
      const { doc, fi, ids, free } = ctx();
      if (ids.length === 0) return false;
      const deltas = new Map(free.map((id) => [id, { dx, dy }]));
      set(translateLayers(doc, fi, deltas), `${ids.join(",")}:nudge`);
      return true;
    },
    remove(): boolean {
      const { doc, fi, ids } = ctx();
      if (ids.length === 0) return false;
      set(ids.reduce((d, id) => removeLayer(d, fi, id), doc));
      setSelection({ frame: fi, layer: null });
      return true;
    },
    duplicate(): boolean {
      const { doc, fi, ids } = ctx();
      if (ids.length === 0) return false;
      if (ids.length === 1 && ids[0]) {
        const dup = duplicateLayer(doc, fi, ids[0]);
        if (dup.id) {
          set(dup.doc);
          setSelection({ frame: fi, layer: dup.id });
        }
        return true;
      }
      const payload = copyPayload(doc, fi, ids);
      if (!payload) return true;
      const pasted = pastePayload(doc, fi, payload);
      set(translateLayers(pasted.doc, fi, new Map(pasted.ids.map((id) => [id, { dx: 20, dy: 20 }]))));
      setSelection(selectLayers(fi, pasted.ids));
      return true;
    },
    copy(): boolean {
      const { doc, fi, ids } = ctx();
      const payload = ids.length > 0 ? copyPayload(doc, fi, ids) : null;
      if (!payload) return false;
      void writeClipboard(payload);
      return true;
    },
    cut(): boolean {
      const { doc, fi, ids } = ctx();
      const payload = ids.length > 0 ? copyPayload(doc, fi, ids) : null;
      if (!payload) return false;
      void writeClipboard(payload);
      set(ids.reduce((d, id) => removeLayer(d, fi, id), doc));
      setSelection({ frame: fi, layer: null });
      return true;
    },
    paste(): boolean {
      void readClipboard().then((payload) => {
        if (!payload) return;
        const { doc, fi } = ctx();
        const pasted = pastePayload(doc, fi, payload);
        set(pasted.doc);
        setSelection(selectLayers(fi, pasted.ids));
      });
      return true;
    },
    selectAll(): boolean {
      const { doc, fi } = ctx();
      const frame = doc.frames[fi];
      if (!frame) return false;
      setSelection(
        selectLayers(
          fi,
          (frame.layers as Layer[]).map((l) => l.id),
        ),
      );
      return true;
    },
    toggleLock(): boolean {
      const { ids } = ctx();
      if (ids.length === 0) return false;
      editor.toggleLocked(ids);
      return true;
    },
    toggleHidden(): boolean {
      const { doc, fi, ids } = ctx();
      if (ids.length === 0) return false;
      const hide = ids.some((id) => findLayer(doc.frames[fi]?.layers as Layer[], id)?.visible !== false);
      set(
        ids.reduce(
          (d, id) =>
            updateLayer(d, fi, id, (l) => {
              const next = { ...l } as Layer;
              if (hide) next.visible = false;
              else delete next.visible;
              return next;
            }),
          doc,
        ),
      );
      return true;
    },
    /**
     * Live boxes during a drag (the pointer gesture's preview, one undo step at commit); false when
     * they are where the layers already are (nothing changes, nothing is redrawn).
     */
    previewBoxes(frameIndex: number, boxes: ReadonlyMap<string, Box>): boolean {
      const doc = editor.getState().doc;
      const next = applyBoxes(doc, frameIndex, boxes);
      if (next === doc) return false;
      editor.previewDocument(next);
      return true;
    },
    /** The union box of these layers of a frame (unrotated), in frame coordinates. */
    bounds: selectionBounds,
  };
}

export type ArrangeActions = ReturnType<typeof createArrangeActions>;
