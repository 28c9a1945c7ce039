import { useRef, useState } from "react";
import { type ExportFormat, exportFrame } from "../engine/export-frame.ts";
import { useEditor } from "../store/use-editor.ts";
import { useModalFocus } from "./use-modal-focus.ts";

const FORMATS: { value: ExportFormat; label: string }[] = [
  { value: "png", label: "PNG" },
  { value: "jpeg", label: "JPEG" },
  { value: "webp", label: "WebP" },
  { value: "pdf", label: "PDF" },
];
const SCALES = [1, 2, 3, 4];

/**
 * Export: a frame as drawn now (the draft, with the Preview tab's values) downloaded as PNG, JPEG,
 * WebP or PDF at a chosen scale, made in the page by the same engine as the API (no render, no
 * credit). A modal dialog; Escape or Close closes it, focus returns where it was.
 */
export function ExportDialog({ onClose }: { onClose(): void }) {
  const editor = useEditor();
  const frames = useEditor((s) => s.doc.frames);
  const selected = useEditor((s) => s.selection?.frame ?? 0);
  const [frame, setFrame] = useState(frames[selected]?.name ?? frames[0]?.name ?? "");
  const [format, setFormat] = useState<ExportFormat>("png");
  const [scale, setScale] = useState(1);
  const [status, setStatus] = useState<string | null>(null);
  const first = useRef<HTMLSelectElement>(null);
  useModalFocus(first, onClose);

  async function run() {
    const { engine, doc, values } = editor.getState();
    if (!engine) return;
    setStatus("Exporting…");
    try {
      const file = await exportFrame(engine, doc, frame, format, scale, values);
      const url = URL.createObjectURL(file.blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = file.name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setStatus(`Exported ${file.name}`);
    } catch (err) {
      setStatus(`Export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal export-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="export-title"
        data-testid="export-dialog"
      >
        <div className="modal-head">
          <h2 id="export-title">Export</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        <label className="field">
          <span>Frame</span>
          <select
            ref={first}
            data-testid="export-frame"
            value={frame}
            onChange={(e) => setFrame(e.target.value)}
          >
            {frames.map((f) => (
              <option key={f.name} value={f.name}>
                {f.name} ({f.width}×{f.height})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Format</span>
          <select
            data-testid="export-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as ExportFormat)}
          >
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Scale</span>
          <select data-testid="export-scale" value={scale} onChange={(e) => setScale(Number(e.target.value))}>
            {SCALES.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <p className="muted small">
          Drawn here by the API's engine from the draft and the Preview values; no credit is used.
          {format === "pdf" ? " The PDF page is 96 dpi, or the frame's print page." : ""}
        </p>
        <button type="button" className="btn primary" data-testid="export-run" onClick={() => void run()}>
          Export
        </button>
        {status && (
          <p className="small" role="status" data-testid="export-status">
            {status}
          </p>
        )}
      </div>
    </div>
  );
}
