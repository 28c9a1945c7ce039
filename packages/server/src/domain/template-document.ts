import { migrateDocument, type SlotT, type TemplateDocumentT, validateDocument } from "./document.ts";
import { fail, type Result } from "./failure.ts";

interface AnyLayerLike {
  bind?: Record<string, string>;
  visible_when?: { slot: string };
  layers?: AnyLayerLike[];
}

/** The engine's validation (schema, migrations, semantic rules), with paths under `prefix`. */
export function checkTemplateDocument(input: unknown, prefix = "document"): Result<TemplateDocumentT> {
  const checked = validateDocument(input);
  if (checked.ok) return { ok: true, value: checked.document };
  const errors = checked.errors.slice(0, 20).map((e) => ({
    path: e.path === "" ? prefix : e.path.startsWith("[") ? `${prefix}${e.path}` : `${prefix}.${e.path}`,
    message: e.message,
  }));
  const first = errors[0];
  return fail(
    "invalid_request",
    `The template document is not valid${first ? `: ${first.path} ${first.message}` : "."}`,
    {
      errors,
    },
  );
}

/**
 * A document as read from storage, at the version this build writes. Documents stored by an older
 * build (drafts and published versions) are migrated as they are read, so every answer says one
 * version and draws as it did. A current document is returned untouched; a stored document was
 * valid when stored, so a failed migration (none is expected) leaves it as stored.
 */
export function storedDocument(stored: unknown): TemplateDocumentT {
  const migrated = migrateDocument(stored);
  return (migrated.ok ? migrated.document : stored) as TemplateDocumentT;
}

/** Slots the layers draw (bindings) or read (`visible_when` conditions). */
function usedSlots(layers: AnyLayerLike[], into = new Set<string>()): Set<string> {
  for (const layer of layers) {
    for (const slot of Object.values(layer.bind ?? {})) into.add(slot);
    if (layer.visible_when) into.add(layer.visible_when.slot);
    if (layer.layers) usedSlots(layer.layers, into);
  }
  return into;
}

/** Schema response of GET /v1/templates/:id/schema: the spec's two fields plus useful extras. */
export function slotSchema(doc: TemplateDocumentT) {
  const framesBySlot = new Map<string, string[]>();
  for (const frame of doc.frames) {
    for (const slot of usedSlots([frame as AnyLayerLike])) {
      framesBySlot.set(slot, [...(framesBySlot.get(slot) ?? []), frame.name]);
    }
  }
  return {
    slots: doc.slots.map((slot: SlotT) => ({
      ...slot,
      frames: framesBySlot.get(slot.name) ?? [],
    })),
  };
}
