import type { AssetRecord, AssetStore } from "../ports/asset-store.ts";
import {
  type SlotT,
  type SlotValue,
  type SlotValueError,
  type TemplateDocumentT,
  validateSlotValues,
} from "./document.ts";
import { fail, type Result } from "./failure.ts";

export interface Modification {
  name: string;
  text?: string;
  image_url?: string;
  color?: string;
  /** Number slots: a JSON number. */
  number?: number;
  /** Date slots: ISO 8601 text. */
  date?: string;
  /** List slots: the items, each a record of field name -> text or number. */
  items?: readonly Readonly<Record<string, string | number>>[];
}

export interface AssetLookup {
  byId(id: string): Promise<AssetRecord | null>;
  byToken(token: string): Promise<AssetRecord | null>;
}

/** An account's assets by id or by permanent-URL token: another account's are "no such asset". */
export function ownedAssets(assets: Pick<AssetStore, "get" | "getByToken">, accountId: string): AssetLookup {
  return {
    byId: (id) => assets.get(accountId, id),
    byToken: async (token) => {
      const asset = await assets.getByToken(token);
      return asset && asset.accountId === accountId ? asset : null;
    },
  };
}

/** The modification field that carries each slot type's value. */
export const VALUE_FIELD = {
  text: "text",
  image: "image_url",
  color: "color",
  number: "number",
  date: "date",
  list: "items",
} as const satisfies Record<SlotT["type"], keyof Modification>;
const VALUE_FIELDS = Object.values(VALUE_FIELD);
const ASSET_ID = /^ast_[A-Za-z0-9]+$/;
// Permanent asset URLs look like {base}/a/<32 hex>.<ext> (see http/routes/asset-file.ts).
const ASSET_URL_PATH = /\/a\/([0-9a-f]{32})\.[a-z]+$/;

const ASSET_SCHEME = "asset://";

/** Internal reference the worker resolves from the blob store; never fetched over the network. */
export const assetRef = (id: string) => `${ASSET_SCHEME}${id}`;

/** The asset id an `asset://` reference names ("" for a bare `asset://`); null for anything else. */
export function assetIdOf(ref: string): string | null {
  return ref.startsWith(ASSET_SCHEME) ? ref.slice(ASSET_SCHEME.length) : null;
}

/**
 * Checks modifications against the pinned document, in the spec's order: unknown slots first (they
 * name the slot), then value types, then folder binding. Returns the values the worker renders with.
 */
export async function resolveModifications(
  doc: TemplateDocumentT,
  modifications: Modification[],
  assets: AssetLookup,
): Promise<Result<Record<string, SlotValue>>> {
  const slots = new Map<string, SlotT>(doc.slots.map((s) => [s.name, s]));
  for (const mod of modifications) {
    if (!slots.has(mod.name)) {
      return fail("unknown_slot", `Template '${doc.key}' has no slot '${mod.name}'.`, { slot: mod.name });
    }
  }
  // No prototype: a slot may be named `__proto__` (a plain object would swallow its value).
  const values: Record<string, SlotValue> = Object.create(null);
  const errors: { path: string; message: string }[] = [];
  modifications.forEach((mod, i) => {
    const slot = slots.get(mod.name) as SlotT;
    const field = VALUE_FIELD[slot.type];
    const given = VALUE_FIELDS.filter((f) => mod[f] !== undefined);
    if (Object.hasOwn(values, mod.name)) {
      errors.push({ path: `modifications[${i}].name`, message: `Slot '${mod.name}' is given twice.` });
    } else if (given.length !== 1 || given[0] !== field) {
      errors.push({
        path: `modifications[${i}]`,
        message: `Slot '${mod.name}' is a ${slot.type} slot: give exactly the field '${field}'.`,
      });
    } else {
      values[mod.name] = mod[field] as SlotValue;
    }
  });
  if (errors.length > 0)
    return fail("invalid_request", errors[0]?.message ?? "Invalid modifications.", { errors });
  // What the slot itself asks of a value of the right type: a text slot's max_length, a rich slot's markup.
  const checked = validateSlotValues(doc, values);
  if (!checked.ok) {
    const index = new Map(modifications.map((mod, i) => [mod.name, i]));
    // An error inside a value (a list item's field) keeps its steps below the value: `.items[2].name`.
    const pathOf = (error: SlotValueError) =>
      `modifications[${index.get(error.slot)}].${VALUE_FIELD[(slots.get(error.slot) as SlotT).type]}${error.within ?? ""}`;
    const found = checked.errors.map((error) => ({ path: pathOf(error), message: error.message }));
    const first = checked.errors[0];
    const where = first?.within ? ` item ${first.within}` : "";
    return fail("invalid_request", `Slot '${first?.slot}'${where} ${first?.message}.`, { errors: found });
  }

  for (const [i, mod] of modifications.entries()) {
    const slot = slots.get(mod.name) as SlotT;
    if (slot.type === "image") {
      const resolved = await resolveImage(
        values[mod.name] as string,
        `modifications[${i}].image_url`,
        assets,
        slot,
      );
      if (!resolved.ok) return resolved;
      values[mod.name] = resolved.value;
    } else if (slot.type === "list") {
      const images = slot.fields.filter((field) => field.type === "image").map((field) => field.name);
      if (images.length === 0) continue;
      const items: Record<string, string | number>[] = [];
      for (const [n, item] of (
        values[mod.name] as readonly Readonly<Record<string, string | number>>[]
      ).entries()) {
        // No prototype: a field may be named `__proto__`.
        const copy: Record<string, string | number> = Object.assign(Object.create(null), item);
        for (const field of images) {
          if (!Object.hasOwn(copy, field)) continue;
          const path = `modifications[${i}].items[${n}].${field}`;
          const resolved = await resolveImage(copy[field] as string, path, assets, null);
          if (!resolved.ok) return resolved;
          copy[field] = resolved.value;
        }
        items.push(copy);
      }
      values[mod.name] = items;
    }
  }
  return { ok: true, value: values };
}

/**
 * An image value as the worker takes it: an asset of the caller's (by id or permanent URL) becomes an
 * `asset://` reference, an http(s) URL stays; anything else is refused. A folder-bound slot takes only
 * assets from its folder.
 */
async function resolveImage(
  value: string,
  path: string,
  assets: AssetLookup,
  slot: { name: string; folder?: string } | null,
): Promise<Result<string>> {
  const asset = await findOwnedAsset(value, assets);
  if (slot?.folder !== undefined) {
    if (!asset || !inFolder(asset.folder, slot.folder)) {
      return fail(
        "image_out_of_folder",
        `Slot '${slot.name}' accepts only assets from folder '${slot.folder}'.`,
        {
          slot: slot.name,
          folder: slot.folder,
        },
      );
    }
  }
  if (asset && !asset.contentType.startsWith("image/")) {
    return fail("invalid_request", `Asset '${asset.id}' is a ${asset.contentType} file, not an image.`, {
      errors: [{ path, message: "Not an image asset." }],
    });
  }
  if (asset) return { ok: true, value: assetRef(asset.id) };
  if (namesAssetId(value)) {
    return fail("invalid_request", `No asset '${value}'.`, {
      errors: [{ path, message: "Unknown asset id." }],
    });
  }
  if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
    return fail(
      "invalid_request",
      `${path.slice(path.indexOf(".") + 1)} must be a valid http(s) URL or an asset id.`,
      {
        errors: [{ path, message: "Not a valid http(s) URL or asset id." }],
      },
    );
  }
  return { ok: true, value };
}

/**
 * The asset a value names, from `assets` (ownedAssets: the caller's own): an asset id, or a permanent
 * asset URL of this server; `asset://ast_…` too with `references` (documents hold those). Null when
 * the value names no such asset; namesAssetId tells whether it looked like an id at all.
 */
export async function findOwnedAsset(
  value: string,
  assets: AssetLookup,
  options: { references?: boolean } = {},
): Promise<AssetRecord | null> {
  const id = idPart(value, options);
  if (ASSET_ID.test(id)) return assets.byId(id);
  const match = ASSET_URL_PATH.exec(safePath(value));
  return match?.[1] ? assets.byToken(match[1]) : null;
}

/** Whether a value is an asset id (or, with `references`, an `asset://` reference to one). */
export function namesAssetId(value: string, options: { references?: boolean } = {}): boolean {
  return ASSET_ID.test(idPart(value, options));
}

/** The value, or with `references` the id an `asset://` reference names. */
const idPart = (value: string, options: { references?: boolean }) =>
  options.references ? (assetIdOf(value) ?? value) : value;

function safePath(value: string): string {
  try {
    return new URL(value).pathname;
  } catch {
    return "";
  }
}

export function inFolder(assetFolder: string, slotFolder: string): boolean {
  const norm = (f: string) => f.replace(/^\/+|\/+$/g, "");
  const a = norm(assetFolder);
  const s = norm(slotFolder);
  return a === s || a.startsWith(`${s}/`);
}
