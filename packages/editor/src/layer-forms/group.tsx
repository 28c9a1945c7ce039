import type { GroupLayerT } from "@pictor/engine";
import { PaddingField } from "./padding-field.tsx";
import { defineLayerForm, type LayerFormProps } from "./types.ts";

function GroupForm({ layer, onLayer }: LayerFormProps<GroupLayerT>) {
  const hugs = layer.layout?.width === "hug" || layer.layout?.height === "hug";
  return (
    <section>
      <h3>Group</h3>
      <p className="muted small">{layer.layers.length} layers, positioned relative to the group.</p>
      {hugs && (
        <PaddingField
          value={layer.padding}
          testId="prop-group-padding"
          onChange={(padding) => onLayer({ padding } as Partial<GroupLayerT>, "padding")}
        />
      )}
    </section>
  );
}

export const groupForm = defineLayerForm<GroupLayerT>({
  type: "group",
  label: () => "group",
  icon: () => "❒",
  Form: GroupForm,
});
