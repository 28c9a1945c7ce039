import type { RenderRecord } from "../../ports/render-store.ts";
import type { TemplateRecord } from "../../ports/template-store.ts";
import type { AppDeps } from "../app-types.ts";
import { notFound } from "../failure.ts";

/** Scoped to the caller's account: another account's template answers the same 404 as none at all. */
export async function findTemplateOr404(
  deps: Pick<AppDeps, "templates">,
  accountId: string,
  idOrKey: string,
): Promise<TemplateRecord> {
  const template = await deps.templates.find(accountId, idOrKey);
  if (!template) throw notFound(`template '${idOrKey}'`);
  return template;
}

/** Scoped to the caller's account: another account's render answers the same 404 as none at all. */
export async function findRenderOr404(
  deps: Pick<AppDeps, "renders">,
  accountId: string,
  id: string,
): Promise<RenderRecord> {
  const render = await deps.renders.get(accountId, id);
  if (!render) throw notFound(`render '${id}'`);
  return render;
}
