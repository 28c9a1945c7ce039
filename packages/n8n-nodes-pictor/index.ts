export { PictorApi } from "./credentials/PictorApi.credentials.ts";
export { Pictor } from "./nodes/Pictor/Pictor.node.ts";
export { PictorTrigger } from "./nodes/PictorTrigger/PictorTrigger.node.ts";
