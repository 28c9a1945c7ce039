import { useState } from "react";
import { api, type TemplateDetail, type TemplateSummary } from "../api/client.ts";
import { navigate } from "../app/route.ts";
import { blankDocument } from "../model/doc-ops.ts";
import { FRAME_SIZES as PRESETS } from "../model/frame-sizes.ts";
import { Thumbnail } from "./Thumbnail.tsx";

interface Props {
  /** The account's templates: the starter set installed at sign-up and the account's own designs. */
  designs: readonly TemplateSummary[];
  onClose(): void;
}

const suffix = () => Math.random().toString(36).slice(2, 7);

/**
 * New template: a blank frame of a preset size, or a copy of a design (the starter templates every
 * account gets, with their images, and the account's own), shown by engine-drawn thumbnails.
 */
export function NewTemplateDialog({ designs, onClose }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function blank(width: number, height: number) {
    setBusy(true);
    try {
      const doc = blankDocument(`untitled-${suffix()}`, "Untitled template");
      const first = doc.frames[0];
      const frames = first ? [{ ...first, width, height }] : doc.frames;
      const created = await api<TemplateDetail>("/v1/templates", { body: { document: { ...doc, frames } } });
      navigate({ name: "editor", id: created.id });
    } catch (err) {
      setError(String(err));
      setBusy(false);
    }
  }

  async function fromDesign(t: TemplateSummary) {
    setBusy(true);
    try {
      const key = `${t.key.slice(0, 57)}-${suffix()}`;
      const copy = await api<TemplateDetail>(
        `/v1/templates/${t.id}/duplicate?key=${encodeURIComponent(key)}`,
        { method: "POST" },
      );
      navigate({ name: "editor", id: copy.id });
    } catch (err) {
      setError(String(err));
      setBusy(false);
    }
  }

  return (
    <div className="modal-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-label="New template" data-testid="new-template-dialog">
        <div className="modal-head">
          <h2>New template</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        {error && <p className="error">{error}</p>}
        <h3>Blank</h3>
        <div className="row">
          {PRESETS.map((p) => (
            <button
              key={p.name}
              type="button"
              className="btn"
              disabled={busy}
              data-testid={`new-blank-${p.name}`}
              onClick={() => blank(p.width, p.height)}
            >
              {p.label}
            </button>
          ))}
        </div>
        <h3>Start from a design</h3>
        {designs.length === 0 && <p className="muted small">No designs in this account yet.</p>}
        <div className="asset-grid design-grid">
          {designs.map((t) => (
            <button
              key={t.id}
              type="button"
              className="asset"
              disabled={busy}
              data-testid={`new-from-${t.key}`}
              onClick={() => fromDesign(t)}
            >
              <Thumbnail templateId={t.id} version={t.updated_at} box={160} />
              <span className="asset-name">{t.name}</span>
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}
