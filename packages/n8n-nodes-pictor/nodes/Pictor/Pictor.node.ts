import {
  type IDataObject,
  type IExecuteFunctions,
  type IHttpRequestOptions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
  type JsonObject,
  NodeApiError,
  NodeConnectionTypes,
} from "n8n-workflow";

/**
 * The Pictor node: one item in, one API call, one item out (the API's answer as JSON; a rendered
 * image also as binary data). Calls go through n8n's authenticated request helper with the Pictor API
 * credentials, so the key is sent as n8n sends every credential and never sits in the workflow.
 * From n8n-workflow (a peer dependency: n8n's own copy at run time) it takes types, the connection
 * type and NodeApiError, as n8n's lint for community nodes asks.
 */

type Operation = "render" | "batch" | "signUrl" | "getRender" | "uploadAsset";

const show = (...operation: Operation[]) => ({ show: { operation } });

/** The longest a render waits for its image in the request (the API's limit for `wait`). */
const RENDER_WAIT_S = 60;

export class Pictor implements INodeType {
  description: INodeTypeDescription = {
    displayName: "Pictor",
    name: "pictor",
    icon: { light: "file:pictor.svg", dark: "file:pictor.dark.svg" },
    group: ["transform"],
    usableAsTool: true,
    version: 1,
    subtitle: '={{$parameter["operation"]}}',
    description: "Render images from Pictor templates",
    defaults: { name: "Pictor" },
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: "pictorApi", required: true }],
    properties: [
      {
        displayName: "Operation",
        name: "operation",
        type: "options",
        noDataExpression: true,
        default: "render",
        options: [
          { name: "Get Render", value: "getRender", action: "Get a render" },
          { name: "Render", value: "render", action: "Render an image and wait for it" },
          { name: "Render Batch", value: "batch", action: "Render a batch of images" },
          { name: "Sign Image URL", value: "signUrl", action: "Sign an image link" },
          { name: "Upload Asset", value: "uploadAsset", action: "Upload an asset" },
        ],
      },
      {
        displayName: "Template",
        name: "template",
        type: "string",
        required: true,
        default: "",
        description: "Key or ID of a published template",
        displayOptions: show("render", "signUrl"),
      },
      {
        displayName: "Values",
        name: "values",
        type: "json",
        default: "{}",
        description:
          'Slot values by slot name, e.g. { "title": "Hello", "photo": "https://…/a.jpg", "bg": "#112233" }: text, image URL or asset ID, #RRGGBB colour, number',
        displayOptions: show("render", "signUrl"),
      },
      {
        displayName: "Format",
        name: "format",
        type: "options",
        default: "png",
        options: [
          { name: "PNG", value: "png" },
          { name: "JPEG", value: "jpg" },
          { name: "WebP", value: "webp" },
        ],
        displayOptions: show("render", "signUrl"),
      },
      {
        displayName: "Scale",
        name: "scale",
        type: "number",
        default: 1,
        typeOptions: { minValue: 1, maxValue: 4 },
        description: "1 to 4; a render costs ceil(scale²) credits",
        displayOptions: show("render", "signUrl"),
      },
      {
        displayName: "Download Image",
        name: "download",
        type: "boolean",
        default: true,
        description: "Whether to put the rendered image on the item as binary data (property data)",
        displayOptions: show("render"),
      },
      {
        displayName: "Rows",
        name: "rows",
        type: "json",
        default: "[]",
        description:
          'The batch: POST /v1/renders bodies, e.g. [{ "template": "og-card", "modifications": [{ "name": "title", "text": "A" }] }]',
        displayOptions: show("batch"),
      },
      {
        displayName: "URL-Signing Key ID",
        name: "keyId",
        type: "string",
        required: true,
        default: "",
        description: "The usk_… ID of a URL-signing key (see the URL-signing keys in the API reference)",
        displayOptions: show("signUrl"),
      },
      {
        displayName: "Render ID",
        name: "renderId",
        type: "string",
        required: true,
        default: "",
        description: "The render's ID, rnd_…",
        displayOptions: show("getRender"),
      },
      {
        displayName: "Input Binary Field",
        name: "binaryProperty",
        type: "string",
        default: "data",
        description: "The item's binary property holding the image or font to upload",
        displayOptions: show("uploadAsset"),
      },
      {
        displayName: "Folder",
        name: "folder",
        type: "string",
        default: "",
        description: 'Library folder, e.g. "brand/logos/"',
        displayOptions: show("uploadAsset"),
      },
    ],
  };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const credentials = await this.getCredentials("pictorApi");
    const base = String(credentials.baseUrl).replace(/\/+$/, "");
    const request = (options: IHttpRequestOptions) =>
      this.helpers.httpRequestWithAuthentication.call(this, "pictorApi", {
        ...options,
        url: `${base}${options.url}`,
      }) as Promise<IDataObject>;
    const out: INodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      try {
        const operation = this.getNodeParameter("operation", i) as Operation;
        out.push(await run(this, operation, i, request));
      } catch (error) {
        if (!this.continueOnFail()) throw new NodeApiError(this.getNode(), error as JsonObject);
        out.push({ json: { error: errorOf(error) }, pairedItem: { item: i } });
      }
    }
    return [out];
  }
}

type Request = (options: IHttpRequestOptions) => Promise<IDataObject>;

async function run(
  fn: IExecuteFunctions,
  operation: Operation,
  i: number,
  request: Request,
): Promise<INodeExecutionData> {
  const paired = { pairedItem: { item: i } };
  switch (operation) {
    case "render": {
      const job = await request({
        method: "POST",
        url: "/v1/renders",
        json: true,
        body: {
          template: fn.getNodeParameter("template", i) as string,
          modifications: modificationsOf(jsonParameter(fn, "values", i)),
          format: fn.getNodeParameter("format", i) as string,
          scale: fn.getNodeParameter("scale", i) as number,
          wait: RENDER_WAIT_S,
        },
      });
      if (job.status !== "completed" || !(fn.getNodeParameter("download", i) as boolean))
        return { json: job, ...paired };
      const bytes = (await fn.helpers.httpRequest({
        method: "GET",
        url: String(job.output_url),
        encoding: "arraybuffer",
        json: false,
      })) as ArrayBuffer;
      const format = String(job.format);
      const data = await fn.helpers.prepareBinaryData(
        Buffer.from(bytes),
        `${String(job.id)}.${format === "jpeg" ? "jpg" : format}`,
        format === "jpeg" ? "image/jpeg" : `image/${format}`,
      );
      return { json: job, binary: { data }, ...paired };
    }
    case "batch":
      return {
        json: await request({
          method: "POST",
          url: "/v1/renders/batch",
          json: true,
          body: { renders: jsonParameter(fn, "rows", i) },
        }),
        ...paired,
      };
    case "signUrl": {
      const keyId = encodeURIComponent(fn.getNodeParameter("keyId", i) as string);
      const values = Object.fromEntries(
        Object.entries(jsonParameter(fn, "values", i) as IDataObject).map(([k, v]) => [k, String(v)]),
      );
      return {
        json: await request({
          method: "POST",
          url: `/v1/url-signing-keys/${keyId}/sign`,
          json: true,
          body: {
            template: fn.getNodeParameter("template", i) as string,
            values,
            format: fn.getNodeParameter("format", i) as string,
            scale: fn.getNodeParameter("scale", i) as number,
          },
        }),
        ...paired,
      };
    }
    case "getRender": {
      const id = encodeURIComponent(fn.getNodeParameter("renderId", i) as string);
      return { json: await request({ method: "GET", url: `/v1/renders/${id}`, json: true }), ...paired };
    }
    case "uploadAsset": {
      const property = fn.getNodeParameter("binaryProperty", i) as string;
      const binary = fn.helpers.assertBinaryData(i, property);
      const bytes = await fn.helpers.getBinaryDataBuffer(i, property);
      const form = new FormData();
      form.append(
        "file",
        new Blob([new Uint8Array(bytes)], { type: binary.mimeType }),
        binary.fileName ?? "upload",
      );
      const folder = fn.getNodeParameter("folder", i) as string;
      if (folder !== "") form.append("folder", folder);
      return { json: await request({ method: "POST", url: "/v1/assets", body: form }), ...paired };
    }
  }
}

/** A JSON parameter as n8n hands it: already parsed, or its text. */
function jsonParameter(fn: IExecuteFunctions, name: string, i: number): unknown {
  const value = fn.getNodeParameter(name, i);
  return typeof value === "string" ? JSON.parse(value === "" ? "null" : value) : value;
}

/** `{ slot: value }` as the API's modifications: a string starting with # and 6 hex digits is a colour, an http(s) URL or asset id an image, a number a number, anything else text. */
function modificationsOf(values: unknown): IDataObject[] {
  if (Array.isArray(values)) return values as IDataObject[];
  if (typeof values !== "object" || values === null) return [];
  return Object.entries(values as IDataObject).map(([name, value]) => {
    if (typeof value === "number") return { name, number: value };
    const text = String(value);
    if (/^#[0-9A-Fa-f]{6}$/.test(text)) return { name, color: text };
    if (/^(https?:\/\/|ast_)/.test(text)) return { name, image_url: text };
    return { name, text };
  });
}

function errorOf(error: unknown): IDataObject {
  const body = (error as { response?: { body?: { error?: IDataObject } } }).response?.body?.error;
  return body ?? { message: error instanceof Error ? error.message : String(error) };
}
