import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileBlobStore } from "../../src/adapters/files/blob-store.ts";
import { blobStoreContract } from "./blob-store.contract.ts";

for (const renderOutputs of [false, true]) {
  blobStoreContract(
    renderOutputs ? "files (render outputs: blocking, in place, as in render worker threads)" : "files",
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "pictor-blobs-"));
      return {
        store: createFileBlobStore(dir, { renderOutputs }),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  );
}
