import { mount } from "./app/mount.tsx";

// What users download (`npm run build`, packages/editor/dist): the app alone. The end-to-end tests
// and the editor benchmark load testing/entry.ts instead, the same app with the test bridge.
mount();
