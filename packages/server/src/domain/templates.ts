import type { Clock } from "../ports/clock.ts";
import type { TemplateRecord, TemplateStore } from "../ports/template-store.ts";
import type { TemplateDocumentT } from "./document.ts";
import { fail, type Result } from "./failure.ts";
import { newId } from "./ids.ts";
import { checkTemplateDocument } from "./template-document.ts";

export interface TemplateDeps {
  templates: TemplateStore;
  clock: Clock;
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
