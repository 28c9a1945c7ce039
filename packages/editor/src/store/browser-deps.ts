import { api, type SavedTemplateDetail, type TemplateDetail } from "../api/client.ts";
import { loadEditorEngine } from "../engine/load-engine.ts";
import type { EditorDeps } from "./editor-store.ts";

/** The store's dependencies in the page: the engine bundle, the Pictor API, the window. */
export const browserDeps: EditorDeps = {
  loadEngine: loadEditorEngine,
  loadTemplate: (id) => api<TemplateDetail>(`/v1/templates/${encodeURIComponent(id)}`),
  saveTemplate: (id, document) =>
    api<SavedTemplateDetail>(`/v1/templates/${id}`, { method: "PUT", body: { document } }),
  viewport: () => ({ width: window.innerWidth, height: window.innerHeight }),
};
