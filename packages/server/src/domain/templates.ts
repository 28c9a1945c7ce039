import type { AssetRecord, AssetStore } from "../ports/asset-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { TemplateRecord, TemplateStore } from "../ports/template-store.ts";
import type { TemplateDocumentT } from "./document.ts";
import { fail, type Result } from "./failure.ts";
import { newId } from "./ids.ts";
import { jsonStrings } from "./json-strings.ts";
import { assetIdOf, assetRef, namesAssetId } from "./render-request.ts";
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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The values an image slot takes from the document itself: its `default` and its `sample` value. */
function* imageSlotValues(
  doc: TemplateDocumentT,
): Generator<{ slot: string; what: "default" | "sample value"; path: string; value: string }> {
  for (const [i, slot] of doc.slots.entries()) {
    if (slot.type !== "image") continue;
    if (slot.default !== undefined) {
      yield { slot: slot.name, what: "default", path: `document.slots[${i}].default`, value: slot.default };
    }
    const sample = doc.sample && Object.hasOwn(doc.sample, slot.name) ? doc.sample[slot.name] : undefined;
    if (typeof sample === "string") {
      const key = IDENTIFIER.test(slot.name) ? `.${slot.name}` : `[${JSON.stringify(slot.name)}]`;
      yield { slot: slot.name, what: "sample value", path: `document.sample${key}`, value: sample };
    }
  }
}

/**
 * A template names assets by id, and a render draws whatever its template names. Checked when the
 * document is saved or published:
 * - an id of another account's asset (or of none) is refused (renders also resolve ids only within
 *   the render's account, so a document saved before this check cannot reach them either);
 * - an image slot's `default` or `sample` value given as a bare asset id `ast_…` (the form requests
 *   use) is stored as `asset://ast_…`, the form the renderer reads, as a request value is mapped;
 * - such a value must name an image, not a font.
 * Failures are `invalid_request` with the JSON path, naming the slot where a slot's value is at fault.
 */
async function checkAssetRefs(
  deps: TemplateDeps,
  accountId: string,
  input: TemplateDocumentT,
): Promise<Result<TemplateDocumentT>> {
  const found = new Map<string, AssetRecord | null>();
  const lookup = async (id: string) => {
    if (!found.has(id)) found.set(id, await deps.assets.get(accountId, id));
    return found.get(id) ?? null;
  };
  const refused = (path: string, message: string, detail: string) =>
    fail("invalid_request", message, { errors: [{ path, message: detail }] });

  // Bare ids to store as `asset://` references, by slot name.
  const mapped = { default: new Map<string, string>(), "sample value": new Map<string, string>() };
  for (const ref of imageSlotValues(input)) {
    const id = namesAssetId(ref.value) ? ref.value : assetIdOf(ref.value);
    if (!id) continue;
    const asset = await lookup(id);
    if (!asset) {
      return refused(
        ref.path,
        `Slot '${ref.slot}': its ${ref.what} names asset '${id}', which this account does not have.`,
        `Unknown asset id for slot '${ref.slot}'.`,
      );
    }
    if (!asset.contentType.startsWith("image/")) {
      return refused(
        ref.path,
        `Slot '${ref.slot}': its ${ref.what} names asset '${id}', a ${asset.contentType} file, not an image.`,
        `Not an image asset (slot '${ref.slot}').`,
      );
    }
    if (ref.value !== assetRef(id)) mapped[ref.what].set(ref.slot, assetRef(id));
  }
  const doc: TemplateDocumentT =
    mapped.default.size === 0 && mapped["sample value"].size === 0
      ? input
      : {
          ...input,
          slots: input.slots.map((slot) => {
            const value = mapped.default.get(slot.name);
            return value === undefined || slot.type !== "image" ? slot : { ...slot, default: value };
          }),
          ...(input.sample && {
            // fromEntries: a slot may be named `__proto__`.
            sample: Object.fromEntries(
              Object.entries(input.sample).map(([name, value]) => [
                name,
                mapped["sample value"].get(name) ?? value,
              ]),
            ),
          }),
        };

  for (const ref of assetRefsOf(doc)) {
    if (!(await lookup(ref.id))) {
      return refused(
        ref.path,
        `The document names asset '${ref.id}', which this account does not have.`,
        "Unknown asset id.",
      );
    }
  }
  return { ok: true, value: doc };
}

export async function createTemplate(
  deps: TemplateDeps,
  accountId: string,
  input: unknown,
  options: { publish?: boolean } = {},
): Promise<Result<TemplateRecord>> {
  const checked = checkTemplateDocument(input);
  if (!checked.ok) return checked;
  const refs = await checkAssetRefs(deps, accountId, checked.value);
  if (!refs.ok) return refs;
  const doc = refs.value;
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
  const refs = await checkAssetRefs(deps, accountId, checked.value);
  if (!refs.ok) return refs;
  const now = deps.clock.now().toISOString();
  if (!(await deps.templates.updateDraft(accountId, template.id, refs.value, now))) {
    return keyTaken(refs.value.key);
  }
  return { ok: true, value: (await deps.templates.find(accountId, template.id)) as TemplateRecord };
}

/**
 * Freezes the draft as the next version. The draft's asset references are checked again (a draft saved
 * before the check may name another account's asset, or a bare id): refused, or mapped first.
 */
export async function publishTemplate(
  deps: TemplateDeps,
  accountId: string,
  idOrKey: string,
): Promise<Result<TemplateRecord>> {
  const template = await deps.templates.find(accountId, idOrKey);
  if (!template) return fail("not_found", `No template '${idOrKey}'.`);
  const refs = await checkAssetRefs(deps, accountId, template.draft);
  if (!refs.ok) return refs;
  const now = deps.clock.now().toISOString();
  if (refs.value !== template.draft)
    await deps.templates.updateDraft(accountId, template.id, refs.value, now);
  await deps.templates.publish(accountId, template.id, now);
  return { ok: true, value: (await deps.templates.find(accountId, template.id)) ?? template };
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
