import { Type as T } from "@sinclair/typebox";
import type { App, AppDeps } from "../app-types.ts";
import { baseUrl } from "../base-url.ts";
import { notFound } from "../failure.ts";
import { type DocPage, llmsFullTxt, llmsTxt, readDocPages } from "../llms/docs-index.ts";

const MARKDOWN = "text/markdown; charset=utf-8";

/**
 * `/llms.txt`, `/llms-full.txt` and each page they link (`/llms/<page>.md`), public: made from the
 * project's docs/ as this server has them (read once, at the first request), so they say what the
 * docs say. Absent docs/: 404.
 */
export function registerLlmsTxt(app: App, deps: AppDeps, pagesOf: () => DocPage[] = readDocPages): void {
  let pages: DocPage[] | null = null;
  const docs = () => {
    pages ??= pagesOf();
    if (pages.length === 0) throw notFound("documentation on this server");
    return pages;
  };
  const config = { public: true };
  const schema = (summary: string) => ({ summary, tags: ["agents"], hide: true });

  app.get("/llms.txt", { config, schema: schema("llms.txt") }, async (request, reply) =>
    reply.type(MARKDOWN).send(llmsTxt(docs(), baseUrl(request, deps.publicUrl))),
  );
  app.get("/llms-full.txt", { config, schema: schema("llms-full.txt") }, async (request, reply) =>
    reply.type(MARKDOWN).send(llmsFullTxt(docs(), baseUrl(request, deps.publicUrl))),
  );
  app.get(
    "/llms/:page",
    {
      config,
      schema: {
        ...schema("One page of the docs, as Markdown"),
        params: T.Object({ page: T.String({ maxLength: 100 }) }),
      },
    },
    async (request, reply) => {
      const page = docs().find((p) => p.file === request.params.page);
      if (!page) throw notFound(`page '${request.params.page}'`);
      return reply.type(MARKDOWN).send(page.text);
    },
  );
}
