import type { TemplateDocumentT } from "../domain/document.ts";

export interface TemplateRecord {
  id: string;
  accountId: string;
  key: string;
  name: string;
  draft: TemplateDocumentT;
  /** Latest published version number, null while never published. */
  publishedVersion: number | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateVersion {
  templateId: string;
  version: number;
  document: TemplateDocumentT;
  publishedAt: string;
}

export interface TemplateStore {
  /** Inserts a template; returns false when the key is already used in this account. */
  insert(record: TemplateRecord): Promise<boolean>;
  /** By id or addressing key, within the account only. */
  find(accountId: string, idOrKey: string): Promise<TemplateRecord | null>;
  list(
    accountId: string,
    page: { limit: number; after: string | null; publishedOnly: boolean },
  ): Promise<TemplateRecord[]>;
  /** Replaces the draft; false when the new key collides with another template. */
  updateDraft(accountId: string, id: string, draft: TemplateDocumentT, at: string): Promise<boolean>;
  /** Freezes the draft as the next version and returns it. */
  publish(accountId: string, id: string, at: string): Promise<TemplateVersion>;
  version(templateId: string, version: number): Promise<TemplateVersion | null>;
  /** Published versions, oldest first, after `afterVersion` (a page's last one; null: from the first). */
  versions(
    templateId: string,
    page: { limit: number; afterVersion: number | null },
  ): Promise<TemplateVersion[]>;
  archive(accountId: string, id: string, at: string): Promise<void>;
}
