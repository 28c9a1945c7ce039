import { createContext, useContext } from "react";
import type { SlotT } from "../engine/engine-types.ts";

/**
 * Makes a new slot from the selected layer's property and binds the property to it (offered by the
 * bind menus of the layer's form), or null where no single layer is being edited (the frame).
 */
export const NewSlotContext = createContext<((prop: string, type: SlotT["type"]) => void) | null>(null);

export const useNewSlot = () => useContext(NewSlotContext);
