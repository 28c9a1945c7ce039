import type { DatabaseSync } from "node:sqlite";
import { storedDocument } from "../../domain/template-document.ts";
import type { TemplateRecord, TemplateStore, TemplateVersion } from "../../ports/template-store.ts";
import { templateFromRow, templateVersionFromRow } from "../sql-rows.ts";
import { json, parse, sqliteColumns, transaction } from "./database.ts";
import { sql } from "./statements.ts";

type Row = Record<string, unknown>;

const toTemplate = (r: Row): TemplateRecord => templateFromRow(r, sqliteColumns);

const toVersion = (r: Row): TemplateVersion => templateVersionFromRow(r, sqliteColumns);

/** Published versions read so far, per connection: a version never changes once published. */
const versionCache = new WeakMap<DatabaseSync, Map<string, TemplateVersion>>();
/** Enough for every template a busy instance renders; past it the cache starts afresh. */
const MAX_CACHED_VERSIONS = 256;

/**
 * One published version, parsed once. Every render reads its version twice (acceptance, then the
 * worker's claim), and parsing the document each time was the largest JSON cost of a render request.
 * Callers share the returned object and must not change it.
 */
export function readTemplateVersion(
  db: DatabaseSync,
  templateId: string,
  version: number,
): TemplateVersion | null {
  let cache = versionCache.get(db);
  if (!cache) {
    cache = new Map();
    versionCache.set(db, cache);
  }
  const key = `${templateId}@${version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const r = sql(db, "SELECT * FROM template_versions WHERE template_id = ? AND version = ?").get(
    templateId,
    version,
  );
  if (!r) return null;
  if (cache.size >= MAX_CACHED_VERSIONS) cache.clear();
  const read = toVersion(r);
  cache.set(key, read);
  return read;
}

const isUniqueViolation = (e: unknown) => e instanceof Error && /UNIQUE constraint failed/.test(e.message);

export function createSqliteTemplateStore(db: DatabaseSync): TemplateStore {
  return {
    async insert(t) {
      try {
        sql(
          db,
          `INSERT INTO templates (id, account_id, key, name, draft, published_version, archived_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          t.id,
          t.accountId,
          t.key,
          t.name,
          json(t.draft),
          t.publishedVersion,
          t.archivedAt,
          t.createdAt,
          t.updatedAt,
        );
        return true;
      } catch (e) {
        if (isUniqueViolation(e)) return false;
        throw e;
      }
    },
    async find(accountId, idOrKey) {
      const r = sql(db, "SELECT * FROM templates WHERE account_id = ? AND (id = ? OR key = ?)").get(
        accountId,
        idOrKey,
        idOrKey,
      );
      return r ? toTemplate(r) : null;
    },
    async list(accountId, { limit, after, publishedOnly }) {
      const filter = publishedOnly ? "AND published_version IS NOT NULL" : "";
      return sql(
        db,

        `SELECT * FROM templates WHERE account_id = ? AND archived_at IS NULL ${filter} AND id > ?
           ORDER BY id LIMIT ?`,
      )
        .all(accountId, after ?? "", limit)
        .map(toTemplate);
    },
    async updateDraft(accountId, id, draft, at) {
      try {
        sql(
          db,
          "UPDATE templates SET draft = ?, key = ?, name = ?, updated_at = ? WHERE id = ? AND account_id = ?",
        ).run(json(draft), draft.key, draft.name, at, id, accountId);
        return true;
      } catch (e) {
        if (isUniqueViolation(e)) return false;
        throw e;
      }
    },
    async publish(accountId, id, at) {
      return transaction(db, () => {
        const t = sql(db, "SELECT * FROM templates WHERE id = ? AND account_id = ?").get(id, accountId);
        if (!t) throw new Error(`no template ${id}`);
        const next = Number(t.published_version ?? 0) + 1;
        sql(
          db,
          "INSERT INTO template_versions (template_id, version, document, published_at) VALUES (?, ?, ?, ?)",
        ).run(id, next, String(t.draft), at);
        sql(
          db,
          "UPDATE templates SET published_version = ?, archived_at = NULL, updated_at = ? WHERE id = ?",
        ).run(next, at, id);
        return { templateId: id, version: next, document: storedDocument(parse(t.draft)), publishedAt: at };
      });
    },
    async version(templateId, version) {
      return readTemplateVersion(db, templateId, version);
    },
    async versions(templateId, { limit, afterVersion }) {
      return sql(
        db,
        "SELECT * FROM template_versions WHERE template_id = ? AND version > ? ORDER BY version LIMIT ?",
      )
        .all(templateId, afterVersion ?? 0, limit)
        .map(toVersion);
    },
    async archive(accountId, id, at) {
      sql(db, "UPDATE templates SET archived_at = ?, updated_at = ? WHERE id = ? AND account_id = ?").run(
        at,
        at,
        id,
        accountId,
      );
    },
  };
}
