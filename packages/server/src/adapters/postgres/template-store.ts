import type pg from "pg";
import { storedDocument } from "../../domain/template-document.ts";
import type { TemplateRecord, TemplateStore, TemplateVersion } from "../../ports/template-store.ts";
import { templateFromRow, templateVersionFromRow } from "../sql-rows.ts";
import { postgresColumns, withTransaction } from "./pool.ts";

type Row = Record<string, unknown>;

const toTemplate = (r: Row): TemplateRecord => templateFromRow(r, postgresColumns);

const toVersion = (r: Row): TemplateVersion => templateVersionFromRow(r, postgresColumns);

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === "23505";

export function createPgTemplateStore(pool: pg.Pool): TemplateStore {
  return {
    async insert(t) {
      try {
        await pool.query(
          `INSERT INTO templates (id, account_id, key, name, draft, published_version, archived_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            t.id,
            t.accountId,
            t.key,
            t.name,
            JSON.stringify(t.draft),
            t.publishedVersion,
            t.archivedAt,
            t.createdAt,
            t.updatedAt,
          ],
        );
        return true;
      } catch (e) {
        if (isUniqueViolation(e)) return false;
        throw e;
      }
    },
    async find(accountId, idOrKey) {
      const { rows } = await pool.query(
        "SELECT * FROM templates WHERE account_id = $1 AND (id = $2 OR key = $2)",
        [accountId, idOrKey],
      );
      return rows[0] ? toTemplate(rows[0]) : null;
    },
    async list(accountId, { limit, after, publishedOnly }) {
      const filter = publishedOnly ? "AND published_version IS NOT NULL" : "";
      // Byte order, as SQLite compares text: the page cursor must not depend on the database locale.
      const { rows } = await pool.query(
        `SELECT * FROM templates WHERE account_id = $1 AND archived_at IS NULL ${filter} AND id COLLATE "C" > $2
         ORDER BY id COLLATE "C" LIMIT $3`,
        [accountId, after ?? "", limit],
      );
      return rows.map(toTemplate);
    },
    async updateDraft(accountId, id, draft, at) {
      try {
        await pool.query(
          "UPDATE templates SET draft = $1, key = $2, name = $3, updated_at = $4 WHERE id = $5 AND account_id = $6",
          [JSON.stringify(draft), draft.key, draft.name, at, id, accountId],
        );
        return true;
      } catch (e) {
        if (isUniqueViolation(e)) return false;
        throw e;
      }
    },
    publish(accountId, id, at) {
      return withTransaction(pool, async (client) => {
        // The row lock makes concurrent publishes take consecutive version numbers.
        const { rows } = await client.query(
          "SELECT published_version, draft::text AS draft_text FROM templates WHERE id = $1 AND account_id = $2 FOR UPDATE",
          [id, accountId],
        );
        const t = rows[0];
        if (!t) throw new Error(`no template ${id}`);
        const next = Number(t.published_version ?? 0) + 1;
        await client.query(
          "INSERT INTO template_versions (template_id, version, document, published_at) VALUES ($1, $2, $3, $4)",
          [id, next, t.draft_text, at],
        );
        await client.query(
          "UPDATE templates SET published_version = $1, archived_at = NULL, updated_at = $2 WHERE id = $3",
          [next, at, id],
        );
        return {
          templateId: id,
          version: next,
          document: storedDocument(JSON.parse(t.draft_text)),
          publishedAt: at,
        };
      });
    },
    async version(templateId, version) {
      const { rows } = await pool.query(
        "SELECT * FROM template_versions WHERE template_id = $1 AND version = $2",
        [templateId, version],
      );
      return rows[0] ? toVersion(rows[0]) : null;
    },
    async versions(templateId, { limit, afterVersion }) {
      const { rows } = await pool.query(
        "SELECT * FROM template_versions WHERE template_id = $1 AND version > $2 ORDER BY version LIMIT $3",
        [templateId, afterVersion ?? 0, limit],
      );
      return rows.map(toVersion);
    },
    async archive(accountId, id, at) {
      await pool.query(
        "UPDATE templates SET archived_at = $1, updated_at = $1 WHERE id = $2 AND account_id = $3",
        [at, id, accountId],
      );
    },
  };
}
