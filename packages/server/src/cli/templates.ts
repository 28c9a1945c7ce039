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
import { dataDirFrom } from "../main/config.ts";
import { type DataDir, openDataDir } from "../main/data-dir.ts";
import type { TemplateRecord } from "../ports/template-store.ts";
import { noAccount, UsageError } from "./usage-error.ts";

export function registerTemplatesCommand(program: Command): void {
  const templates = program.command("templates").description("Manage templates");
  templates
    .command("push <file>")
    .description(
      "Create or update a template's draft from a document file (by its key); images it names by a path relative to the file become assets of the account (folder templates/<key>/); --publish publishes it",
    )
    .requiredOption("--account <id>", "account to push into")
    .option("--publish", "publish the pushed draft as a new version")
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
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
      const data = openDataDir(dataDirFrom(flags.data, process.env), { existing: true });
      try {
        if (!(await data.accounts.get(flags.account))) throw noAccount(flags.account, data.paths.root);
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
        process.stdout.write(
          `${existing ? "Updated" : "Created"} ${result.value.key} (${result.value.id})` +
            `${flags.publish ? (unchanged ? `, version ${version} already published as it is` : `, published version ${version}`) : ", draft only"}${images}.\n`,
        );
      } finally {
        data.close();
      }
    });
}

/** True when the template's draft is the document of its latest published version. */
async function draftIsPublished(data: DataDir, template: TemplateRecord): Promise<boolean> {
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
  data: DataDir,
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

async function removeAssets(data: DataDir, accountId: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) await deleteAsset({ library: data.assetLibrary, blobs: data.blobs }, accountId, id);
}
