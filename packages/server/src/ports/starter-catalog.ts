import type { TemplateDocumentT } from "../domain/document.ts";

export interface StarterFile {
  /** The reference exactly as written in the document (e.g. "images/hero.jpg"). */
  ref: string;
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The example templates every new account receives, with the sample images they reference. */
export interface StarterCatalog {
  load(): Promise<{ document: TemplateDocumentT; files: StarterFile[] }[]>;
}
