import type { SlotT, VisibleWhenT } from "../../engine/engine-types.ts";
import { SelectField, TextField } from "../fields.tsx";

type Test = "non_empty" | "empty" | "equals";

interface Props {
  value: VisibleWhenT | undefined;
  slots: readonly SlotT[];
  onChange(value: VisibleWhenT | undefined): void;
}

function testOf(value: VisibleWhenT): Test {
  return "equals" in value ? "equals" : value.is;
}

function build(slot: string, test: Test, equals: string): VisibleWhenT {
  return test === "equals" ? { slot, equals } : { slot, is: test };
}

/**
 * `visible_when`: draw the layer only when a slot's value is non-empty, empty, or equal to a text.
 * "Always" removes the condition.
 */
export function ConditionField({ value, slots, onChange }: Props) {
  const test = value ? testOf(value) : "non_empty";
  const equals = value && "equals" in value ? value.equals : "";
  const names = slots.map((s) => s.name);
  // A condition on a slot that no longer exists still shows (validation reports it).
  if (value && !names.includes(value.slot)) names.push(value.slot);
  return (
    <div className="condition" data-testid="condition">
      <SelectField
        label="Show this layer"
        testId="cond-slot"
        value={value?.slot ?? ""}
        options={[
          { value: "", label: "always" },
          ...names.map((n) => ({ value: n, label: `when slot “${n}”…` })),
        ]}
        onChange={(slot) => onChange(slot === "" ? undefined : build(slot, test, equals))}
      />
      {value && (
        <SelectField<Test>
          label="Condition"
          testId="cond-test"
          value={test}
          options={[
            { value: "non_empty", label: "has a value" },
            { value: "empty", label: "is empty" },
            { value: "equals", label: "equals…" },
          ]}
          onChange={(t) => onChange(build(value.slot, t, equals))}
        />
      )}
      {value && "equals" in value && (
        <TextField
          label="Value"
          testId="cond-value"
          value={equals}
          onChange={(v) => onChange(build(value.slot, "equals", v))}
        />
      )}
    </div>
  );
}
