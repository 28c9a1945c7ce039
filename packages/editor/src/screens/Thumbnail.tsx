import { useEffect, useRef, useState } from "react";
import { api, type TemplateDetail } from "../api/client.ts";
import { loadEditorEngine } from "../engine/load-engine.ts";
import { toImageData } from "../engine/pixels.ts";

/** Thumbnails render one after another: the page stays responsive while a list of them fills in. */
let queue: Promise<unknown> = Promise.resolve();

/** A template's first frame drawn by the engine (with its sample values), scaled down to fit. */
export function Thumbnail({
  templateId,
  version,
  box = 280,
}: {
  templateId: string;
  version: string;
  /** Width available, CSS px (the height is 5/8 of it). */
  box?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  /** Why it failed, shown on hovering "No preview" (and read by the end-to-end tests). */
  const [reason, setReason] = useState("");

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version means new pixels
  useEffect(() => {
    let cancelled = false;
    const job = queue.then(async () => {
      if (cancelled) return;
      try {
        const [engine, detail] = await Promise.all([
          loadEditorEngine(),
          api<TemplateDetail>(`/v1/templates/${encodeURIComponent(templateId)}`),
        ]);
        const checked = engine.validate(detail.document);
        if (!checked.ok) throw new Error(checked.errors.join("; "));
        const doc = checked.document;
        const frame = doc.frames[0];
        if (!frame || cancelled) return;
        const out = await engine.render(doc, { frame: frame.name, values: doc.sample ?? {}, scale: 1 });
        const full = document.createElement("canvas");
        full.width = out.width;
        full.height = out.height;
        full.getContext("2d")?.putImageData(toImageData(out.width, out.height, out.pixels, out.opaque), 0, 0);
        const c = canvas.current;
        if (!c || cancelled) return;
        const s = Math.min(box / out.width, (box * 0.625) / out.height);
        c.width = Math.max(1, Math.round(out.width * s * devicePixelRatio));
        c.height = Math.max(1, Math.round(out.height * s * devicePixelRatio));
        c.style.width = `${Math.round(out.width * s)}px`;
        c.style.height = `${Math.round(out.height * s)}px`;
        const ctx = c.getContext("2d");
        if (!ctx) return;
        ctx.imageSmoothingQuality = "high";
        ctx.drawImage(full, 0, 0, c.width, c.height);
        setState("ready");
      } catch (error) {
        if (cancelled) return;
        setReason(error instanceof Error ? error.message : String(error));
        setState("failed");
      }
    });
    queue = job;
    return () => {
      cancelled = true;
    };
  }, [templateId, version, box]);

  return (
    <div className="thumb" data-state={state}>
      <canvas ref={canvas} />
      {/* Seen, not read: the thumbnail sits in a link named "Open <template>", and its placeholder
          text is no part of that name (axe: label-content-name-mismatch while it draws). */}
      {state === "loading" && (
        <span className="muted small" aria-hidden="true">
          Rendering…
        </span>
      )}
      {state === "failed" && (
        <span className="muted small" aria-hidden="true" title={reason}>
          No preview
        </span>
      )}
    </div>
  );
}
