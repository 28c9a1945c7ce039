import type {
  IBinaryData,
  ICredentialDataDecryptedObject,
  IDataObject,
  IExecuteFunctions,
  IHttpRequestOptions,
  INodeExecutionData,
  INodeType,
  IWebhookFunctions,
  IWebhookResponseData,
} from "n8n-workflow";
import { PictorApi } from "../credentials/PictorApi.credentials.ts";

/**
 * What n8n hands a node, as far as these nodes use it, without n8n itself (its install fetches native
 * binaries from outside the registries): parameters, credentials, binary data, and the request helpers.
 * The request helper sends the credentials as n8n does, from the credential type's own `authenticate`
 * (its `{{$credentials.x}}` expressions filled in), over real HTTP; an answer of 400 or more throws
 * with the parsed body under `response.body`, as n8n's request errors carry it.
 */

export class RequestError extends Error {
  readonly response: { status: number; body: unknown };
  constructor(status: number, body: unknown) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
    this.response = { status, body };
  }
}

async function httpRequest(options: IHttpRequestOptions): Promise<unknown> {
  const headers = new Headers(options.headers as Record<string, string> | undefined);
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(options.body);
  }
  const response = await fetch(options.url, { method: options.method ?? "GET", headers, body });
  if (options.encoding === "arraybuffer") {
    if (response.status >= 400) throw new RequestError(response.status, await response.text());
    return response.arrayBuffer();
  }
  const text = await response.text();
  const parsed = text === "" ? null : (JSON.parse(text) as unknown);
  if (response.status >= 400) throw new RequestError(response.status, parsed);
  return parsed;
}

function authenticated(credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions) {
  const fill = (template: string) =>
    template
      .replace(/^=/, "")
      .replace(/\{\{\$credentials\.(\w+)\}\}/g, (_m, name: string) => String(credentials[name]));
  const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
  const declared = new PictorApi().authenticate.properties.headers ?? {};
  for (const [name, value] of Object.entries(declared)) headers[name] = fill(String(value));
  return { ...options, headers };
}

export interface Run {
  parameters: Record<string, unknown>;
  credentials: ICredentialDataDecryptedObject;
  items?: INodeExecutionData[];
}

export async function execute(node: INodeType, run: Run): Promise<INodeExecutionData[][]> {
  const items: INodeExecutionData[] = run.items ?? [{ json: {} }];
  const binaryOf = (i: number, property: string): IBinaryData => {
    const binary = items[i]?.binary?.[property];
    if (!binary) throw new Error(`item ${i} has no binary property ${property}`);
    return binary;
  };
  const context = {
    getInputData: () => items,
    getNodeParameter: (name: string) => {
      if (!(name in run.parameters)) throw new Error(`no parameter ${name}`);
      return run.parameters[name];
    },
    getCredentials: async () => run.credentials,
    continueOnFail: () => false,
    getNode: () => ({ name: "Pictor", type: "pictor", typeVersion: 1 }),
    helpers: {
      httpRequest,
      httpRequestWithAuthentication: (_name: string, options: IHttpRequestOptions) =>
        httpRequest(authenticated(run.credentials, options)),
      prepareBinaryData: async (
        buffer: Buffer,
        fileName?: string,
        mimeType?: string,
      ): Promise<IBinaryData> => ({
        data: buffer.toString("base64"),
        mimeType: mimeType ?? "application/octet-stream",
        ...(fileName ? { fileName } : {}),
      }),
      assertBinaryData: binaryOf,
      getBinaryDataBuffer: async (i: number, property: string) =>
        Buffer.from(binaryOf(i, property).data, "base64"),
    },
  };
  if (!node.execute) throw new Error("not an executing node");
  return (await node.execute.call(context as unknown as IExecuteFunctions)) as INodeExecutionData[][];
}

export interface WebhookCall {
  credentials: ICredentialDataDecryptedObject;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

/** Calls a trigger's webhook as n8n's webhook server would (raw body kept); the status it answered, if any. */
export async function webhook(
  node: INodeType,
  call: WebhookCall,
): Promise<{ result: IWebhookResponseData; status: number | null; sent: unknown }> {
  let status: number | null = null;
  let sent: unknown = null;
  const response = {
    status(code: number) {
      status = code;
      return response;
    },
    json(body: unknown) {
      sent = body;
      return response;
    },
  };
  const context = {
    getCredentials: async () => call.credentials,
    getRequestObject: () => ({ rawBody: call.rawBody, headers: call.headers }),
    getHeaderData: () => call.headers,
    getBodyData: () => JSON.parse(call.rawBody.toString("utf8")) as IDataObject,
    getResponseObject: () => response,
    getNode: () => ({ name: "Pictor Trigger", type: "pictorTrigger", typeVersion: 1 }),
  };
  if (!node.webhook) throw new Error("not a webhook node");
  const result = await node.webhook.call(context as unknown as IWebhookFunctions);
  return { result, status, sent };
}
