export interface AssetRecord {
  id: string;
  accountId: string;
  /** e.g. `renders/promo/` or `starter/promo/`; folder-bound slots compare against it. */
  folder: string;
  name: string;
  contentType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  blobKey: string;
  /** 128-bit random capability used in the permanent asset URL. */
  token: string;
  etag: string;
  metadata: Record<string, string>;
  tags: string[];
  renderId: string | null;
  createdAt: string;
}

export interface AssetStore {
  insert(asset: AssetRecord): Promise<void>;
  get(accountId: string, id: string): Promise<AssetRecord | null>;
  /** The account's assets among `ids`, in no particular order (unknown ids and other accounts' are left out). */
  getMany(accountId: string, ids: readonly string[]): Promise<AssetRecord[]>;
  /** Any account: the id alone is looked up for signed output links (the signature is the capability). */
  getById(id: string): Promise<AssetRecord | null>;
  getByToken(token: string): Promise<AssetRecord | null>;
}
