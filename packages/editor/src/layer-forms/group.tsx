import type { GroupLayerT } from "@pictor/engine";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function GroupForm({ layer }: LayerFormProps<GroupLayerT>) {
  return (
    <section>
      <h3>Group</h3>
      <p className="muted small">{layer.layers.length} layers, positioned relative to the group.</p>
    </section>
  );
}

export const groupForm = defineLayerForm<GroupLayerT>({
  type: "group",
  label: () => "group",
  icon: () => "❒",
  Form: GroupForm,
});
