import { useEffect, useState } from "react";
import { api, type TemplateDetail, type TemplateSummary } from "../api/client.ts";

/**
 * Whether a template's draft is what is live: `unpublished` (never published), `changed` (the draft
 * differs from the published version: unpublished changes), `live` (the draft is the live version).
 * Null while it is being found out.
 */
export type DraftStatus = "unpublished" | "changed" | "live";

/** JSON with object keys sorted, so two equal documents compare equal whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export function useDraftStatus(t: TemplateSummary): DraftStatus | null {
  const [status, setStatus] = useState<DraftStatus | null>(
    t.published_version === null ? "unpublished" : null,
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new updated_at means a changed draft
  useEffect(() => {
    const version = t.published_version;
    if (version === null) {
      setStatus("unpublished");
      return;
    }
    let live = true;
    // Versions are listed oldest first, after a cursor: the one after version - 1 is the live one.
    const after = version > 1 ? `&cursor=${version - 1}` : "";
    void Promise.all([
      api<TemplateDetail>(`/v1/templates/${encodeURIComponent(t.id)}`),
      api<{ data: { version: number; document: unknown }[] }>(
        `/v1/templates/${encodeURIComponent(t.id)}/versions?limit=1${after}`,
      ),
    ])
      .then(([detail, versions]) => {
        const published = versions.data.find((v) => v.version === version);
        if (!live || !published) return;
        setStatus(canonical(detail.document) === canonical(published.document) ? "live" : "changed");
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [t.id, t.published_version, t.updated_at]);
  return status;
}
