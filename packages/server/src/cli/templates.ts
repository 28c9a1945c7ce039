import type { Command } from "commander";
import { readTemplateFile } from "../adapters/files/starter-catalog.ts";
import { createMediaUploadInspector } from "../adapters/media/upload-inspector.ts";
import { deleteAsset } from "../domain/assets/delete-asset.ts";
import { uploadAsset } from "../domain/assets/upload.ts";
import type { Failure } from "../domain/failure.ts";
import { assetRef } from "../domain/render-request.ts";
import { rewriteRefs } from "../domain/starter-templates.ts";
import { checkTemplateDocument } from "../domain/template-document.ts";
import { createTemplate, updateDraft } from "../domain/templates.ts";
import type { BackendState } from "../main/backend.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { TemplateRecord } from "../ports/template-store.ts";
import {
  type AdminBackend,
  DATA_FLAG,
  openAdminBackend,
  unopenedBlobStore,
  withBackendHelp,
} from "./admin-backend.ts";
import { UsageError } from "./usage-error.ts";

/** The state a push writes, and the blob store for the images the document names (when it names any). */
type PushBackend = BackendState & AdminBackend & { blobs: BlobStore };

export function registerTemplatesCommand(program: Command): void {
  const templates = withBackendHelp(program.command("templates").description("Manage templates"));
  templates
    .command("push <file>")
    .description(
      "Create or update a template's draft from a document file (by its key); images it names by a path relative to the file become assets of the account (folder templates/<key>/); --publish publishes it",
    )
    .requiredOption("--account <id>", "account to push into")
    .option("--publish", "publish the pushed draft as a new version")
    .option(...DATA_FLAG)
    .action(async (file: string, flags: { account: string; publish?: boolean; data?: string }) => {
      let read: Awaited<ReturnType<typeof readTemplateFile>>;
      try {
        read = await readTemplateFile(file);
      } catch (error) {
        throw new UsageError(`${file}: ${(error as Error).message}`);
      }
      // The document first, so that a push refused for its content stores no images either.
      const checked = checkTemplateDocument(read.document);
      if (!checked.ok) throw new UsageError(failureText(checked));
      if (read.missing.length > 0) {
        throw new UsageError(
          `${file} names images that are not there (paths are relative to the file): ${read.missing.join(", ")}`,
        );
      }
      // Images go to the blob store; a document that names none needs only the database.
      const data: PushBackend =
        read.files.length > 0
          ? await openAdminBackend(flags, {
              writesImages: `templates push writes the images ${file} names`,
              existing: true,
            })
          : {
              ...(await openAdminBackend(flags, { writesImages: null, existing: true })),
              blobs: unopenedBlobStore("the document names no image"),
            };
      let summary: string;
      try {
        await data.requireAccount(flags.account);
        const key = (read.document as { key?: unknown }).key;
        const imported = await withImportedImages(
          data,
          flags.account,
          read,
          typeof key === "string" ? key : "",
        );
        const existing = typeof key === "string" ? await data.templates.find(flags.account, key) : null;
        const result = existing
          ? await updateDraft(data, flags.account, existing.id, imported.document)
          : await createTemplate(data, flags.account, imported.document);
        if (!result.ok) {
          // A refused push leaves no images behind (those it found already there stay).
          await removeAssets(data, flags.account, imported.created);
          throw new UsageError(failureText(result));
        }
        let version = result.value.publishedVersion;
        // Pushing the same file again must not mint a version that renders exactly like the last one.
        const unchanged = flags.publish && (await draftIsPublished(data, result.value));
        if (flags.publish && !unchanged) {
          version = (
            await data.templates.publish(flags.account, result.value.id, data.clock.now().toISOString())
          ).version;
        }
        const reused = read.files.length - imported.created.length;
        const images =
          read.files.length > 0
            ? `, ${imported.created.length} new image asset(s)${reused > 0 ? `, ${reused} already there` : ""}`
            : "";
        summary =
          `${existing ? "Updated" : "Created"} ${result.value.key} (${result.value.id})` +
          `${flags.publish ? (unchanged ? `, version ${version} already published as it is` : `, published version ${version}`) : ", draft only"}${images}.\n`;
      } finally {
        await data.close();
      }
      data.report("wrote to");
      process.stdout.write(summary);
    });
}

/** True when the template's draft is the document of its latest published version. */
async function draftIsPublished(
  data: Pick<BackendState, "templates">,
  template: TemplateRecord,
): Promise<boolean> {
  if (template.publishedVersion === null) return false;
  const latest = await data.templates.version(template.id, template.publishedVersion);
  return latest !== null && JSON.stringify(latest.document) === JSON.stringify(template.draft);
}

/** A refusal as the CLI prints it: the message, then each field error on its own line. */
function failureText(failure: Failure): string {
  const details = (failure.details?.errors as { path: string; message: string }[] | undefined) ?? [];
  return [failure.message, ...details.map((e) => `  ${e.path}: ${e.message}`)].join("\n");
}

/**
 * The document with each image it names by a relative path replaced by `asset://` of that image,
 * uploaded into the account (identical bytes already there are reused, so pushing again adds none),
 * and the ids of the assets this push created. An image that is refused removes those again.
 */
async function withImportedImages(
  data: PushBackend,
  accountId: string,
  read: Awaited<ReturnType<typeof readTemplateFile>>,
  key: string,
): Promise<{ document: unknown; created: string[] }> {
  const created: string[] = [];
  if (read.files.length === 0) return { document: read.document, created };
  const deps = {
    library: data.assetLibrary,
    blobs: data.blobs,
    clock: data.clock,
    inspector: createMediaUploadInspector(),
  };
  const refs = new Map<string, string>();
  for (const image of read.files) {
    const uploaded = await uploadAsset(deps, {
      accountId,
      bytes: image.bytes,
      filename: image.name,
      folder: `templates/${key || "pushed"}/`,
    });
    if (!uploaded.ok) {
      await removeAssets(data, accountId, created);
      throw new UsageError(`Image ${image.ref}: ${uploaded.message}`);
    }
    if (uploaded.created) created.push(uploaded.asset.id);
    refs.set(image.ref, assetRef(uploaded.asset.id));
  }
  return { document: rewriteRefs(read.document, refs), created };
}

async function removeAssets(
  data: Pick<PushBackend, "assetLibrary" | "blobs">,
  accountId: string,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) await deleteAsset({ library: data.assetLibrary, blobs: data.blobs }, accountId, id);
}
