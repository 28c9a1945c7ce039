import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import { isFontFile, isImageFile, type UploadedAsset, uploadAsset } from "../api/upload-asset.ts";
import { claimPaste } from "../controls/paste-claim.ts";
import { accountFonts } from "../engine/account-fonts.ts";
import type { Layer, TextLayerT } from "../engine/engine-types.ts";
import { creatorOf } from "../layer-forms/registry.ts";
import { updateLayer } from "../model/doc-ops.ts";
import type { EditorStore } from "../store/editor-store.ts";

/** Where a dropped or pasted picture goes: a frame, and a point in it (null: the frame's centre). */
interface Target {
  frame: number;
  at: { x: number; y: number } | null;
}

/** The box of a picture of this natural size: at most 60 % of the frame each way, centred on `at`, whole pixels. */
export function pictureBox(
  asset: Pick<UploadedAsset, "width" | "height">,
  frame: { width: number; height: number },
  at: { x: number; y: number } | null,
) {
  const w = asset.width ?? frame.width * 0.4;
  const h = asset.height ?? frame.width * 0.3;
  const k = Math.min(1, (frame.width * 0.6) / w, (frame.height * 0.6) / h);
  const width = Math.max(1, Math.round(w * k));
  const height = Math.max(1, Math.round(h * k));
  const cx = at?.x ?? frame.width / 2;
  const cy = at?.y ?? frame.height / 2;
  return { x: Math.round(cx - width / 2), y: Math.round(cy - height / 2), width, height };
}

/**
 * Image and font files dropped on the canvas or pasted (Ctrl+V): an image is uploaded to the asset
 * library (folder `uploads/`) and placed as an image layer where it was dropped (pasted: the
 * selected frame's centre); a font is uploaded into `fonts/` and given to the selected text layer.
 * Returns the stage's drag handlers and what is happening, for a status line.
 */
export function useFileDrop(editor: EditorStore) {
  const [status, setStatus] = useState<string | null>(null);
  const latest = useRef(editor);
  latest.current = editor;

  const take = useCallback(async (files: readonly File[], target: Target) => {
    const ed = latest.current;
    for (const file of files) {
      try {
        if (isImageFile(file)) {
          setStatus(`Uploading ${file.name}…`);
          const asset = await uploadAsset(file, { folder: "uploads/" });
          const frame = ed.getState().doc.frames[target.frame];
          const spec = creatorOf("image");
          if (!frame || !spec) continue;
          const box = pictureBox(asset, frame, target.at);
          ed.createLayer(target.frame, spec, box, {
            src: `asset://${asset.id}`,
            name: file.name,
          } as Partial<Layer>);
          setStatus(`Placed ${file.name} (in the asset library, uploads/)`);
        } else if (isFontFile(file)) {
          setStatus(`Uploading ${file.name}…`);
          const asset = await uploadAsset(file, { folder: "fonts/" });
          const family = asset.font?.family;
          await accountFonts({ force: true });
          const layer = ed.selectedLayer();
          if (family && layer?.type === "text") {
            const { doc } = ed.getState();
            const fi = ed.frameIndex();
            ed.setDocument(
              updateLayer(doc, fi, layer.id, (l) => {
                const t = l as TextLayerT;
                return { ...t, font: { ...t.font, family } } as Layer;
              }),
            );
          }
          setStatus(family ? `Uploaded the font ${family}` : `Uploaded ${file.name}`);
        } else setStatus(`${file.name}: only images (PNG, JPEG, WebP, GIF) and fonts can be dropped here`);
      } catch (err) {
        setStatus(`${file.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }, []);

  // Ctrl+V with files on the clipboard (a screenshot, a copied image file). Other pastes are the
  // layer clipboard's (controls/use-shortcuts.ts), which leaves them alone when this one claims it.
  useEffect(() => {
    function onPaste(e: ClipboardEvent) {
      if ((e.target as HTMLElement | null)?.closest?.("input, textarea, [contenteditable]")) return;
      const files = [...(e.clipboardData?.files ?? [])].filter((f) => isImageFile(f) || isFontFile(f));
      if (files.length === 0) return;
      e.preventDefault();
      claimPaste();
      void take(files, { frame: latest.current.frameIndex(), at: null });
    }
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [take]);

  const onDragOver = (e: DragEvent) => {
    if ([...e.dataTransfer.items].some((i) => i.kind === "file")) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    }
  };
  const onDrop = (e: DragEvent) => {
    const files = [...e.dataTransfer.files];
    if (files.length === 0) return;
    e.preventDefault();
    void take(files, dropTarget(e, latest.current.frameIndex()));
  };
  return { status, dismiss: () => setStatus(null), onDragOver, onDrop };
}

/** The frame under the drop point and the point in its pixels; else the selected frame's centre. */
function dropTarget(e: DragEvent, selected: number): Target {
  const overlays = [...document.querySelectorAll<HTMLElement>(".frame-overlay")];
  for (const [i, el] of overlays.entries()) {
    const r = el.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) continue;
    const zoom = Number(el.dataset.zoom) || 1;
    return { frame: i, at: { x: (e.clientX - r.left) / zoom, y: (e.clientY - r.top) / zoom } };
  }
  return { frame: selected, at: null };
}
