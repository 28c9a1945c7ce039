import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";
import type { OnDemandDeps } from "../app/on-demand-images.ts";
import type { RenderService } from "../app/render-service.ts";
import type { AccountStore, WebhookSecretStore } from "../ports/account-store.ts";
import type { AssetLibrary } from "../ports/asset-library.ts";
import type { AssetStore } from "../ports/asset-store.ts";
import type { BatchStore } from "../ports/batch-store.ts";
import type { BlobStore } from "../ports/blob-store.ts";
import type { Clock } from "../ports/clock.ts";
import type { EditorImagePreparer } from "../ports/editor-image-preparer.ts";
import type { ImageUrlStore } from "../ports/image-url-store.ts";
import type { Ledger } from "../ports/ledger.ts";
import type { OperationsMetrics } from "../ports/metrics.ts";
import type { OutputLinks } from "../ports/output-links.ts";
import type { RenderStore } from "../ports/render-store.ts";
import type { SafeFetch } from "../ports/safe-fetch.ts";
import type { StarterCatalog } from "../ports/starter-catalog.ts";
import type { TemplateStore } from "../ports/template-store.ts";
import type { TraceSpan } from "../ports/tracing.ts";
import type { UploadInspector } from "../ports/upload-inspector.ts";
import type { WebhookOutbox } from "../ports/webhook-outbox.ts";
import type { DownloadLimiter } from "./download-limits.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the auth hook on every authenticated route. */
    accountId: string;
    /** The id of the API key that authenticated the request (auth hook); "" before or without it. */
    apiKeyId: string;
    /** The render this request created, for its log line (""; render routes set it). */
    renderId: string;
    /** The error code it was answered with, for its log line ("" for a success). */
    errorCode: string;
    /** This request's span when traces are on (the tracing plugin); null otherwise. */
    traceSpan: TraceSpan | null;
    /** The request an in-process call was made for (an MCP tool's API call); null for any other. */
    parentRequest: FastifyRequest | null;
    /** The MCP tool a /v1/mcp request called, for its log line ("" for any other request). */
    toolName: string;
  }
  interface FastifyContextConfig {
    /** Routes reachable without an API key (sign-up, OpenAPI, public asset links). */
    public?: boolean;
    /** Probes and scrapes (/healthz, /readyz, /metrics): neither logged nor counted as API traffic. */
    operational?: boolean;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface AppDeps {
  accounts: AccountStore;
  templates: TemplateStore;
  renders: RenderStore;
  assets: AssetStore;
  ledger: Ledger;
  blobs: BlobStore;
  /** The one render path (app/render-service.ts): every route that renders goes through it. */
  renderService: RenderService;
  starters: StarterCatalog;
  clock: Clock;
  /** `fetch` is needed only by uploads from a URL (POST /v1/assets/import). */
  safeFetch: Pick<SafeFetch, "check"> & Partial<Pick<SafeFetch, "fetch">>;
  /** Search, dedupe, patch and delete over the asset records. */
  assetLibrary: AssetLibrary;
  /** HMAC key for the API's own signed output links (kept in the data dir). */
  signingSecret: Uint8Array;
  /** Makes `output_url`: the API's HMAC link, or an object store's presigned URL. */
  outputLinks: OutputLinks;
  /** Absolute base URL for links; default: derived from the request's Host. */
  publicUrl?: string;
  /** Open sign-up at POST /v1/accounts (default true). */
  openSignup?: boolean;
  /** Completion callbacks: delivery log and manual redelivery. */
  webhooks: WebhookOutbox;
  /** Current/previous webhook secret and rotation. */
  webhookSecrets: WebhookSecretStore;
  /** Batch records: which renders a batch accepted and which rows failed. */
  batches: BatchStore;
  /** Reads uploaded images and fonts before they enter the library (POST /v1/assets, /v1/assets/import). */
  uploadInspector: UploadInspector;
  /**
   * Bytes of stored files (uploads and render outputs) past which an account's uploads and imports
   * are refused (413 storage_quota_exceeded); renders are never refused for it. Absent or null: none.
   */
  storageQuotaBytes?: number | null;
  /**
   * POST /v1/editor/prepare-image's limits; absent: DEFAULT_PREPARE_BUDGET (routes/editor-prepare-image.ts).
   * Set by buildApp.
   */
  prepareImageBudget?: PrepareImageBudget;
  /**
   * Fits the editor's images on the render threads (a process that renders); absent: on this
   * process's own libuv pool (an API process without render threads).
   */
  editorImages?: EditorImagePreparer;
  /** The file routes' rate limits per client address and per credential (download-limits.ts); set by buildApp. */
  downloadLimits: DownloadLimiter;
  /** Counts what the routes see (on-demand cache results); absent: nothing is counted. */
  metrics?: Pick<OperationsMetrics, "imageUrl">;
  /** On-demand image URLs: signing keys, render cache and its limits; absent: routes off. */
  onDemand?: {
    imageUrls: ImageUrlStore;
    cacheMaxBytes: number;
    missesBurst: number;
    missesPerSecond: number;
    /** How long a miss waits for its render before answering 503 (the render still enters the cache). */
    missWaitMs: number;
    /** This process's in-memory caches of published versions and small outputs (OnDemandDeps.caches). */
    caches: OnDemandDeps["caches"];
  };
}

/**
 * What buildApp is given: the upload inspector defaults to the media one (sharp, wawoff2, CanvasKit);
 * the download limits and the prepared images' budget come from buildApp's options.
 */
export type AppDepsInput = Omit<AppDeps, "uploadInspector" | "downloadLimits" | "prepareImageBudget"> & {
  uploadInspector?: UploadInspector;
};

/** The editor's prepared images: what one account may ask for, and what the process may hold. */
export interface PrepareImageBudget {
  /** Megapixels of answers an account may ask for at once, and per second after. */
  megapixelsBurst: number;
  megapixelsPerSecond: number;
  /**
   * Bytes of answers being made or sent and not yet read, all accounts together (the memory plan's
   * share for them); one account may hold a quarter of it, and always one answer. Absent: 256 MiB.
   */
  bytesInFlight?: number;
}
