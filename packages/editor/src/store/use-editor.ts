import { createContext, createElement, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { EditorState, EditorStore } from "./editor-store.ts";

const EditorContext = createContext<EditorStore | null>(null);

/** Makes `editor` the store every `useEditor` below reads. */
export function EditorProvider({ editor, children }: { editor: EditorStore; children: ReactNode }) {
  return createElement(EditorContext.Provider, { value: editor }, children);
}

const nothing = () => null;

/**
 * The one way components reach the editor, as tldraw's `useEditor()`: without an argument, the store
 * (its methods change the document, the selection and the view); with a selector, that part of the
 * state, the component rendering again only when it changes. A selector returns parts of the state
 * as they are (the document, a layer of it, a number), never a new object or array.
 */
export function useEditor(): EditorStore;
export function useEditor<T>(select: (state: EditorState) => T): T;
export function useEditor<T>(select?: (state: EditorState) => T): EditorStore | T {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error("useEditor outside an EditorProvider");
  const read = select ?? nothing;
  const selected = useSyncExternalStore(editor.subscribe, () => read(editor.getState()));
  return select ? (selected as T) : editor;
}
