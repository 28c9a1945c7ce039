// What fitting an editor image needs (sharp, no engine or CanvasKit): loaded alone by the server's
// editor-image process, which would otherwise load the whole renderer for it.
export { collectGarbage } from "./collect-garbage.ts";
export { ImageInvalidError, ImageTooLargeError } from "./errors.ts";
export { type NativeWork, oneAtATime } from "./native-work.ts";
export { DEFAULT_IMAGE_LIMITS, type ImageLimits, prepareImage } from "./prepare-image.ts";
