import { useCallback, useEffect, useState } from "react";
import { allPages, api, type TemplateDetail } from "../api/client.ts";
import type { TemplateDocumentT } from "../engine/engine-types.ts";
import { canonical } from "../screens/draft-status.ts";

interface Version {
  version: number;
  published_at: string;
  document: unknown;
}

interface Props {
  templateId: string;
  detail: TemplateDetail | null;
  /** Every edit is saved to the draft (nothing waits for the autosave). */
  saved: boolean;
  saveNow(): Promise<boolean>;
  onPublished(detail: TemplateDetail): void;
  onRestore(doc: TemplateDocumentT): void;
}

/**
 * Publishing freezes the draft as the next immutable version; API renders use the latest one. When
 * the saved draft is the live version (just published, or restored and unchanged), there is nothing
 * to publish: the button is disabled and says so.
 */
export function PublishPanel({ templateId, detail, saved, saveNow, onPublished, onRestore }: Props) {
  const [versions, setVersions] = useState<Version[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const all = await allPages<Version>(`/v1/templates/${templateId}/versions`);
    setVersions(all.sort((a, b) => b.version - a.version));
  }, [templateId]);

  useEffect(() => {
    void load().catch((e: unknown) => setError(String(e)));
  }, [load]);

  async function publish() {
    setBusy(true);
    setError(null);
    try {
      if (!(await saveNow())) throw new Error("The draft could not be saved; fix the errors shown first.");
      const published = await api<TemplateDetail>(`/v1/templates/${templateId}/publish`, { method: "POST" });
      onPublished(published);
      await load();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const live = detail?.published_version ?? null;
  const liveVersion = versions.find((v) => v.version === live);
  const upToDate =
    saved &&
    detail !== null &&
    liveVersion !== undefined &&
    canonical(detail.document) === canonical(liveVersion.document);

  return (
    <div className="props">
      <section>
        <h3>Publish</h3>
        <p className="muted small" data-testid="publish-status">
          {live === null
            ? "Not published yet: the API cannot render this template until it is."
            : upToDate
              ? `Live version: v${live}. The draft has no changes since: nothing to publish.`
              : `Live version: v${live}. Publishing makes the current draft v${live + 1}.`}
        </p>
        <button
          type="button"
          className="btn primary"
          onClick={publish}
          disabled={busy || upToDate}
          data-testid="publish-panel-button"
        >
          {busy ? "Publishing…" : upToDate ? "Published" : "Publish draft"}
        </button>
        {error && <p className="error">{error}</p>}
      </section>
      <section>
        <h3>Version history</h3>
        {versions.length === 0 && <p className="muted small">No versions yet.</p>}
        <ul className="list" data-testid="versions">
          {versions.map((v) => (
            <li key={v.version}>
              <div>
                <strong>v{v.version}</strong>
                <div className="muted small">{new Date(v.published_at).toLocaleString()}</div>
              </div>
              <button
                type="button"
                className="btn small ghost"
                onClick={() => onRestore(v.document as TemplateDocumentT)}
              >
                Restore to draft
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
