/** Rows as left-aligned columns two spaces apart (the last column unpadded: names vary most). */
export function columns(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  const lines = rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "),
  );
  return `${lines.join("\n")}\n`;
}
