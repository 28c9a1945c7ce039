import { upgradeV0ToV1 } from "./migrations/v0-to-v1.ts";
import { upgradeV1ToV2 } from "./migrations/v1-to-v2.ts";
import { upgradeV2ToV3 } from "./migrations/v2-to-v3.ts";
import { upgradeV3ToV4 } from "./migrations/v3-to-v4.ts";
import { isRecord, type ValidationError } from "./validate-paths.ts";

/** The document version this engine reads and writes. */
export const CURRENT_VERSION = 4;

export interface Migration {
  from: number;
  to: number;
  /** Returns a new document of version `to`; never mutates its input, never throws. */
  up(doc: Record<string, unknown>): Record<string, unknown>;
}

/** Every step from the oldest supported version to CURRENT_VERSION, one per version. */
export const migrations: readonly Migration[] = [
  { from: 0, to: 1, up: upgradeV0ToV1 },
  { from: 1, to: 2, up: upgradeV1ToV2 },
  { from: 2, to: 3, up: upgradeV2ToV3 },
  { from: 3, to: 4, up: upgradeV3ToV4 },
];

export type MigrationResult =
  | { ok: true; document: Record<string, unknown>; fromVersion: number }
  | { ok: false; errors: ValidationError[] };

/**
 * Brings a document of any supported version up to CURRENT_VERSION. A current document is returned
 * as the same object, untouched. A document without `version` is the v0 draft format.
 */
export function migrateDocument(
  input: unknown,
  registry: readonly Migration[] = migrations,
): MigrationResult {
  if (!isRecord(input)) return fail("", "must be an object");
  const version = detectVersion(input);
  if (typeof version === "string") return fail("version", version);
  let doc = input;
  let at = version;
  while (at < CURRENT_VERSION) {
    const step = registry.find((m) => m.from === at);
    if (step === undefined) return fail("version", `no migration from version ${at} is registered`);
    try {
      doc = step.up(doc);
    } catch (error) {
      return fail("", `migration from version ${step.from} to ${step.to} failed: ${String(error)}`);
    }
    at = step.to;
  }
  return { ok: true, document: doc, fromVersion: version };
}

/** The document's version, or a message saying why it has none we can use. */
function detectVersion(doc: Record<string, unknown>): number | string {
  if (!Object.hasOwn(doc, "version")) {
    // A v1 to v4 document that lost its version would otherwise be migrated as a draft into nonsense.
    if (Object.hasOwn(doc, "frames") && !Object.hasOwn(doc, "layers")) {
      return `is required (the current version is ${CURRENT_VERSION})`;
    }
    // Nothing of a version-0 draft either (say `{}`): checked as a current document, so the errors
    // name what it lacks ("frames is required") rather than fields of a frame migrated from nothing.
    if (!["layers", "width", "height"].some((field) => Object.hasOwn(doc, field))) return CURRENT_VERSION;
    return 0;
  }
  const v = doc.version;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    return `must be a whole number (the current version is ${CURRENT_VERSION})`;
  }
  if (v > CURRENT_VERSION) {
    return `${v} is newer than the newest version this Pictor understands (${CURRENT_VERSION}); upgrade Pictor to open it`;
  }
  return v;
}

function fail(path: string, message: string): MigrationResult {
  return { ok: false, errors: [{ path, message }] };
}
