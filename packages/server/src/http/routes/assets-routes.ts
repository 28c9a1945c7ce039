import type { App, AppDeps } from "../app-types.ts";
import { registerAssetDelete } from "./asset-delete.ts";
import { registerAssetGet } from "./asset-get.ts";
import { registerAssetUpdate } from "./asset-update.ts";
import { registerAssetsList } from "./assets-list.ts";
import { registerAssetsQuery } from "./assets-query.ts";
import { registerAssetsUpload } from "./assets-upload.ts";

/** Every route of the asset library; `/a/:file` (asset-file.ts) serves the bytes. */
export function registerAssetRoutes(app: App, deps: AppDeps): void {
  registerAssetsUpload(app, deps);
  registerAssetsList(app, deps);
  registerAssetsQuery(app, deps);
  registerAssetGet(app, deps);
  registerAssetUpdate(app, deps);
  registerAssetDelete(app, deps);
}
