export * from "./api.ts";
export type { CallbackBody } from "./callback-signature.ts";
export { signCallback, verifyCallback } from "./callback-signature.ts";
export type { CompletionCallback } from "./callback-types.ts";
export {
  encodeImageUrlComponent,
  type ImageUrlFormat,
  imageUrlStringToSign,
  type SignImageUrlOptions,
  signImageUrl,
} from "./sign-image-url.ts";
