import type { AssetRecord, AssetStore } from "../ports/asset-store.ts";
import { type SlotT, type TemplateDocumentT, validateSlotValues } from "./document.ts";
import { fail, type Result } from "./failure.ts";

export interface Modification {
  name: string;
  text?: string;
  image_url?: string;
  color?: string;
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

const VALUE_FIELD = { text: "text", image: "image_url", color: "color" } as const;
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
): Promise<Result<Record<string, string>>> {
  const slots = new Map<string, SlotT>(doc.slots.map((s) => [s.name, s]));
  for (const mod of modifications) {
    if (!slots.has(mod.name)) {
      return fail("unknown_slot", `Template '${doc.key}' has no slot '${mod.name}'.`, { slot: mod.name });
    }
  }
  // No prototype: a slot may be named `__proto__` (a plain object would swallow its value).
  const values: Record<string, string> = Object.create(null);
  const errors: { path: string; message: string }[] = [];
  modifications.forEach((mod, i) => {
    const slot = slots.get(mod.name) as SlotT;
    const field = VALUE_FIELD[slot.type];
    const given = (["text", "image_url", "color"] as const).filter((f) => mod[f] !== undefined);
    if (Object.hasOwn(values, mod.name)) {
      errors.push({ path: `modifications[${i}].name`, message: `Slot '${mod.name}' is given twice.` });
    } else if (given.length !== 1 || given[0] !== field) {
      errors.push({
        path: `modifications[${i}]`,
        message: `Slot '${mod.name}' is a ${slot.type} slot: give exactly the field '${field}'.`,
      });
    } else {
      values[mod.name] = mod[field] as string;
    }
  });
  if (errors.length > 0)
    return fail("invalid_request", errors[0]?.message ?? "Invalid modifications.", { errors });
  // What the slot itself asks of a value of the right type: a text slot's max_length, a rich slot's markup.
  const checked = validateSlotValues(doc, values);
  if (!checked.ok) {
    const index = new Map(modifications.map((mod, i) => [mod.name, i]));
    const pathOf = (slot: string) =>
      `modifications[${index.get(slot)}].${VALUE_FIELD[(slots.get(slot) as SlotT).type]}`;
    const found = checked.errors.map((error) => ({ path: pathOf(error.slot), message: error.message }));
    const first = checked.errors[0];
    return fail("invalid_request", `Slot '${first?.slot}' ${first?.message}.`, { errors: found });
  }

  for (const [i, mod] of modifications.entries()) {
    const slot = slots.get(mod.name) as SlotT;
    if (slot.type !== "image") continue;
    const value = values[mod.name] as string;
    const asset = await findOwnedAsset(value, assets);
    if (slot.folder !== undefined) {
      if (!asset || !inFolder(asset.folder, slot.folder)) {
        return fail(
          "image_out_of_folder",
          `Slot '${slot.name}' accepts only assets from folder '${slot.folder}'.`,
          { slot: slot.name, folder: slot.folder },
        );
      }
    }
    if (asset && !asset.contentType.startsWith("image/")) {
      return fail("invalid_request", `Asset '${asset.id}' is a ${asset.contentType} file, not an image.`, {
        errors: [{ path: `modifications[${i}].image_url`, message: "Not an image asset." }],
      });
    }
    if (asset) {
      values[mod.name] = assetRef(asset.id);
    } else if (namesAssetId(value)) {
      return fail("invalid_request", `No asset '${value}'.`, {
        errors: [{ path: `modifications[${i}].image_url`, message: "Unknown asset id." }],
      });
    } else if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
      return fail("invalid_request", "image_url must be a valid http(s) URL or an asset id.", {
        errors: [{ path: `modifications[${i}].image_url`, message: "Not a valid http(s) URL or asset id." }],
      });
    }
  }
  return { ok: true, value: values };
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
