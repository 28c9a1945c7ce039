import type { AssetStore } from "../ports/asset-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { TemplateRecord, TemplateStore } from "../ports/template-store.ts";
import type { TemplateDocumentT } from "./document.ts";
import { type Failure, fail, type Result } from "./failure.ts";
import { newId } from "./ids.ts";
import { jsonStrings } from "./json-strings.ts";
import { assetIdOf } from "./render-request.ts";
import { checkTemplateDocument } from "./template-document.ts";

export interface TemplateDeps {
  templates: TemplateStore;
  /** A document may name only the account's own assets (`asset://ast_…`). */
  assets: Pick<AssetStore, "get">;
  clock: Clock;
}

/** Every `asset://` reference in a document (layer sources, slot defaults, samples) with its JSON path. */
function* assetRefsOf(doc: TemplateDocumentT): Generator<{ path: string; id: string }> {
  for (const { path, value } of jsonStrings(doc, "document")) {
    const id = assetIdOf(value);
    if (id) yield { path, id };
  }
}

/**
 * A template names assets by id, and a render draws whatever its template names: an id of another
 * account's asset is refused when the document is saved (renders also resolve ids only within the
 * render's account, so a document saved before this check cannot reach them either).
 */
async function foreignAssetRef(
  deps: TemplateDeps,
  accountId: string,
  doc: TemplateDocumentT,
): Promise<Failure | null> {
  const checked = new Set<string>();
  for (const ref of assetRefsOf(doc)) {
    if (checked.has(ref.id)) continue;
    checked.add(ref.id);
    if (!(await deps.assets.get(accountId, ref.id))) {
      return fail(
        "invalid_request",
        `The document names asset '${ref.id}', which this account does not have.`,
        {
          errors: [{ path: ref.path, message: "Unknown asset id." }],
        },
      );
    }
  }
  return null;
}

export async function createTemplate(
  deps: TemplateDeps,
  accountId: string,
  input: unknown,
  options: { publish?: boolean } = {},
): Promise<Result<TemplateRecord>> {
  const checked = checkTemplateDocument(input);
  if (!checked.ok) return checked;
  const doc = checked.value;
  const foreign = await foreignAssetRef(deps, accountId, doc);
  if (foreign) return foreign;
  const now = deps.clock.now().toISOString();
  const record: TemplateRecord = {
    id: newId("tpl"),
    accountId,
    key: doc.key,
    name: doc.name,
    draft: doc,
    publishedVersion: null,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.templates.insert(record))) return keyTaken(doc.key);
  if (options.publish) {
    const version = await deps.templates.publish(accountId, record.id, now);
    record.publishedVersion = version.version;
  }
  return { ok: true, value: record };
}

export async function updateDraft(
  deps: TemplateDeps,
  accountId: string,
  idOrKey: string,
  input: unknown,
): Promise<Result<TemplateRecord>> {
  const template = await deps.templates.find(accountId, idOrKey);
  if (!template) return fail("not_found", `No template '${idOrKey}'.`);
  const checked = checkTemplateDocument(input);
  if (!checked.ok) return checked;
  const foreign = await foreignAssetRef(deps, accountId, checked.value);
  if (foreign) return foreign;
  const now = deps.clock.now().toISOString();
  if (!(await deps.templates.updateDraft(accountId, template.id, checked.value, now))) {
    return keyTaken(checked.value.key);
  }
  return { ok: true, value: (await deps.templates.find(accountId, template.id)) as TemplateRecord };
}

export async function duplicateTemplate(
  deps: TemplateDeps,
  accountId: string,
  idOrKey: string,
  key: string | undefined,
): Promise<Result<TemplateRecord>> {
  const template = await deps.templates.find(accountId, idOrKey);
  if (!template) return fail("not_found", `No template '${idOrKey}'.`);
  for (let n = 2; n < 1000; n++) {
    const candidate = key ?? `${template.key.slice(0, 56)}-copy${n === 2 ? "" : `-${n}`}`;
    const copy: TemplateDocumentT = { ...template.draft, key: candidate, name: `${template.name} (copy)` };
    const created = await createTemplate(deps, accountId, copy);
    if (created.ok || key !== undefined || created.code !== "invalid_request") return created;
  }
  return fail("invalid_request", "Could not find a free key for the copy.");
}

function keyTaken(key: string) {
  return fail("invalid_request", `A template with key '${key}' already exists.`, {
    errors: [{ path: "document.key", message: "Key already used in this account." }],
  });
}
