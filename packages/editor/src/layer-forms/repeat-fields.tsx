import type { StackLayerT, TextLayerT } from "@pictor/engine";
import { CheckField, NumberField, SelectField, TextField } from "../controls/fields.tsx";
import type { TemplateDocumentT } from "../engine/engine-types.ts";

interface Props {
  doc: TemplateDocumentT;
  layer: StackLayerT;
  onRepeat(repeat: StackLayerT["repeat"]): void;
}

/** The "and N more" line a new repeat offers: below the rows, as wide as the stack. */
function moreLine(layer: StackLayerT): TextLayerT {
  return {
    id: `${layer.id}-more`,
    type: "text",
    x: 0,
    y: 0,
    width: layer.width,
    height: 28,
    text: "and {n} more",
    font: { family: "Inter", size: 18 },
    color: "#6B7280",
  };
}

/**
 * A stack's repeat: the list slot its children are drawn once per item of, the most items drawn, and
 * the "and {n} more" line. The canvas previews it with the Preview tab's items of that list (the
 * template's sample items once saved as the sample), drawn by the same engine as the API.
 */
export function RepeatFields({ doc, layer, onRepeat }: Props) {
  const lists = doc.slots.filter((s) => s.type === "list").map((s) => s.name);
  const repeat = layer.repeat;
  return (
    <>
      <h4>Repeat</h4>
      <SelectField
        label="Once per item of"
        testId="prop-stack-repeat"
        value={repeat?.slot ?? ""}
        options={[
          { value: "", label: lists.length === 0 ? "no list slot (add one in Slots)" : "not repeated" },
          ...lists.map((name) => ({ value: name, label: name })),
        ]}
        onChange={(slot) => onRepeat(slot === "" ? undefined : { ...repeat, slot })}
      />
      {repeat !== undefined && (
        <>
          <p className="muted small">
            Bind the children to the item's fields as <code>item.&lt;field&gt;</code> (⚯ lists them).
          </p>
          <NumberField
            label="At most (items)"
            testId="prop-stack-repeat-max"
            optional
            value={repeat.max}
            min={1}
            max={100}
            step={1}
            onChange={(max) => onRepeat({ ...repeat, max: max === undefined ? undefined : Math.round(max) })}
          />
          <CheckField
            label='"and N more" line when items are left out'
            testId="prop-stack-repeat-more"
            value={repeat.more !== undefined}
            onChange={(on) => onRepeat({ ...repeat, more: on ? moreLine(layer) : undefined })}
          />
          {repeat.more !== undefined && (
            <TextField
              label="More text ({n}: how many were left out)"
              testId="prop-stack-repeat-more-text"
              value={repeat.more.text}
              onChange={(text) => onRepeat({ ...repeat, more: { ...(repeat.more as TextLayerT), text } })}
            />
          )}
        </>
      )}
    </>
  );
}
