import { describe, expect, it } from "vitest";
import { dataText, parseDataText } from "../src/layer-forms/chart.tsx";

describe("a chart's data as the form shows and reads it", () => {
  it("reads one point a line: a value, or label: value (the last colon splits)", () => {
    expect(parseDataText("12\nFeb: 19\n\n  Time: 10:30 : -2.5 \n")).toEqual([
      12,
      { label: "Feb", value: 19 },
      { label: "Time: 10:30", value: -2.5 },
    ]);
    expect(parseDataText("")).toEqual([]);
  });

  it("reads nothing while a line is not a point", () => {
    expect(parseDataText("12\nFeb:")).toBeNull();
    expect(parseDataText("twelve")).toBeNull();
    expect(parseDataText("Jan: 1e400")).toBeNull();
  });

  it("writes what it reads back", () => {
    const data = [3, { label: "Mar", value: 7.5 }, -1];
    expect(parseDataText(dataText(data))).toEqual(data);
  });
});
