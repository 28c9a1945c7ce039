import { createContext, useContext } from "react";
import type { ListSlotT } from "../engine/engine-types.ts";

/** The list slot the selected layer is repeated for (its item fields can be bound), or null. */
export const RepeatItemContext = createContext<ListSlotT | null>(null);

export const useRepeatList = () => useContext(RepeatItemContext);
