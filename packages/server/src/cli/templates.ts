import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { createTemplate, updateDraft } from "../domain/templates.ts";
import { dataDirFrom } from "../main/config.ts";
import { openDataDir } from "../main/data-dir.ts";
import { UsageError } from "./usage-error.ts";

export function registerTemplatesCommand(program: Command): void {
  const templates = program.command("templates").description("Manage templates");
  templates
    .command("push <file>")
    .description(
      "Create or update a template's draft from a document file (by its key); --publish publishes it",
    )
    .requiredOption("--account <id>", "account to push into")
    .option("--publish", "publish the pushed draft as a new version")
    .option("--data <dir>", "data directory (PICTOR_DATA_DIR; default ./data)")
    .action(async (file: string, flags: { account: string; publish?: boolean; data?: string }) => {
      let document: unknown;
      try {
        document = JSON.parse(await readFile(file, "utf8"));
      } catch (error) {
        throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
      }
      const data = openDataDir(dataDirFrom(flags.data, process.env));
      try {
        if (!(await data.accounts.get(flags.account))) throw new UsageError(`No account '${flags.account}'.`);
        const key = (document as { key?: unknown }).key;
        const existing = typeof key === "string" ? await data.templates.find(flags.account, key) : null;
        const result = existing
          ? await updateDraft(data, flags.account, existing.id, document)
          : await createTemplate(data, flags.account, document);
        if (!result.ok) {
          const details = (result.details?.errors as { path: string; message: string }[] | undefined) ?? [];
          throw new UsageError(
            [result.message, ...details.map((e) => `  ${e.path}: ${e.message}`)].join("\n"),
          );
        }
        let version = result.value.publishedVersion;
        if (flags.publish) {
          version = (
            await data.templates.publish(flags.account, result.value.id, data.clock.now().toISOString())
          ).version;
        }
        process.stdout.write(
          `${existing ? "Updated" : "Created"} ${result.value.key} (${result.value.id})` +
            `${flags.publish ? `, published version ${version}` : ", draft only"}.\n`,
        );
      } finally {
        data.close();
      }
    });
}
