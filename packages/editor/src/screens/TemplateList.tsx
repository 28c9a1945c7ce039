import { useCallback, useEffect, useState } from "react";
import { allPages, api, type TemplateSummary } from "../api/client.ts";
import { useDraftStatus } from "./draft-status.ts";
import { NewTemplateDialog } from "./NewTemplateDialog.tsx";
import { Thumbnail } from "./Thumbnail.tsx";

/** What the thumbnail shows (always the draft) and whether that differs from the live version. */
function DraftNote({ template }: { template: TemplateSummary }) {
  const status = useDraftStatus(template);
  if (status === null) return null;
  return (
    <div className="muted small thumb-caption" data-testid="draft-status" data-status={status}>
      {status === "live" && <>Preview: the live version v{template.published_version}</>}
      {status === "unpublished" && <>Preview: the draft (never published)</>}
      {status === "changed" && (
        <>
          <span className="badge warn">unpublished changes</span> Preview: the draft
        </>
      )}
    </div>
  );
}

/** The account's templates with engine-drawn thumbnails; create, duplicate, archive. */
export function TemplateList() {
  const [templates, setTemplates] = useState<TemplateSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const load = useCallback(async () => {
    try {
      const all = await allPages<TemplateSummary>("/v1/templates?include_drafts=true");
      setTemplates(all.filter((t) => t.status !== "archived"));
    } catch (err) {
      setError(String(err));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function act(t: TemplateSummary, action: "duplicate" | "archive") {
    try {
      if (action === "duplicate") {
        const suffix = Math.random().toString(36).slice(2, 6);
        const key = `${t.key.slice(0, 58)}-${suffix}`;
        await api(`/v1/templates/${t.id}/duplicate?key=${encodeURIComponent(key)}`, { method: "POST" });
      } else {
        await api(`/v1/templates/${t.id}/archive`, { method: "POST" });
      }
      await load();
    } catch (err) {
      setError(String(err));
    }
  }

  return (
    <section>
      <div className="page-head">
        <div>
          <h1>Templates</h1>
          <p className="muted">Design once, render with your own text, images and colours over the API.</p>
        </div>
        <button
          type="button"
          className="btn primary"
          onClick={() => setCreating(true)}
          data-testid="new-template"
        >
          + New template
        </button>
      </div>
      {creating && <NewTemplateDialog designs={templates ?? []} onClose={() => setCreating(false)} />}
      {error && <p className="error">{error}</p>}
      {templates === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <div className="grid" data-testid="template-grid">
          {templates.map((t) => (
            <article className="card" key={t.id} data-testid="template-card" data-key={t.key}>
              <a
                href={`#/t/${t.id}`}
                className="card-link"
                data-testid="open-template"
                aria-label={`Open ${t.name}`}
              >
                <Thumbnail templateId={t.id} version={t.updated_at} />
              </a>
              <div className="card-body">
                <div className="card-title">
                  <a href={`#/t/${t.id}`}>{t.name}</a>
                  <span className={`badge ${t.status}`}>
                    {t.status === "published" ? `v${t.published_version}` : "draft"}
                  </span>
                </div>
                <DraftNote template={t} />
                <div className="muted small mono">{t.key}</div>
                <div className="muted small">{t.frames.map((f) => `${f.width}×${f.height}`).join(" · ")}</div>
                <div className="card-actions">
                  <button type="button" className="btn small" onClick={() => act(t, "duplicate")}>
                    Duplicate
                  </button>
                  <button type="button" className="btn small ghost" onClick={() => act(t, "archive")}>
                    Archive
                  </button>
                </div>
              </div>
            </article>
          ))}
        </div>
      )}
    </section>
  );
}
