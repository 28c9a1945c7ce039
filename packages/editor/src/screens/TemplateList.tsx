import { useCallback, useEffect, useState } from "react";
import { allPages, api, type TemplateDetail, type TemplateSummary } from "../api/client.ts";
import { navigate } from "../app/route.ts";
import { blankDocument } from "../editor/doc-ops.ts";
import { Thumbnail } from "./Thumbnail.tsx";

/** The account's templates with engine-drawn thumbnails; create, duplicate, archive. */
export function TemplateList() {
  const [templates, setTemplates] = useState<TemplateSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

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

  async function create() {
    const suffix = Math.random().toString(36).slice(2, 7);
    const created = await api<TemplateDetail>("/v1/templates", {
      body: { document: blankDocument(`untitled-${suffix}`, "Untitled template") },
    });
    navigate({ name: "editor", id: created.id });
  }

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
        <button type="button" className="btn primary" onClick={create} data-testid="new-template">
          + New template
        </button>
      </div>
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
