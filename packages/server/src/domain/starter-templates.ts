import type { AssetStore } from "../ports/asset-store.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { StarterCatalog } from "../ports/starter-catalog.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import type { TemplateDocumentT } from "./document.ts";
import { newAssetToken, newId } from "./ids.ts";
import { assetRef } from "./render-request.ts";
import { createTemplate } from "./templates.ts";

/**
 * Copies every example template into the account and publishes it. Sample images the examples
 * reference by relative path become assets of the account (folder `starter/<key>/`), and the
 * document refers to them as `asset://ast_…`, so starters render with no network access.
 */
export async function installStarterTemplates(
  deps: {
    templates: TemplateStore;
    assets: AssetStore;
    blobs: BlobStore;
    clock: Clock;
  },
  accountId: string,
  starters: Awaited<ReturnType<StarterCatalog["load"]>>,
): Promise<void> {
  for (const { document, files } of starters) {
    const refs = new Map<string, string>();
    for (const file of files) {
      const id = newId("ast");
      const blobKey = `assets/${id}`;
      await deps.blobs.put(blobKey, file.bytes);
      await deps.assets.insert({
        id,
        accountId,
        folder: `starter/${document.key}/`,
        name: file.name,
        contentType: file.contentType,
        byteSize: file.bytes.byteLength,
        width: null,
        height: null,
        blobKey,
        token: newAssetToken(),
        etag: `"${id}"`,
        metadata: {},
        tags: ["starter"],
        renderId: null,
        createdAt: deps.clock.now().toISOString(),
      });
      refs.set(file.ref, assetRef(id));
    }
    const rewritten = rewriteRefs(document, refs) as TemplateDocumentT;
    const created = await createTemplate(deps, accountId, rewritten, { publish: true });
    if (!created.ok) throw new Error(`starter template '${document.key}' is invalid: ${created.message}`);
  }
}

/** Replaces every string equal to a known relative reference, wherever it appears (src, defaults, sample). */
export function rewriteRefs(value: unknown, refs: Map<string, string>): unknown {
  if (typeof value === "string") return refs.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, refs));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteRefs(v, refs)]));
  }
  return value;
}
