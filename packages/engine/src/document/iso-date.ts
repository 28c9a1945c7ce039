/**
 * ISO 8601 dates as slots take them: `2026-11-28`, `2026-11-28T18:30`, `2026-11-28T18:30:05.250Z`,
 * `2026-11-28T18:30+02:00`. A date is shown as written: the wall-clock time at the offset given (or
 * UTC when none), so formatting never depends on the time zone of the machine that renders it.
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * The date's wall-clock fields as a UTC timestamp (milliseconds), to be formatted in UTC; null when
 * the text is not an ISO 8601 date or names a day or time that does not exist (2026-02-30, 25:00).
 */
export function wallClockOf(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number(`0.${match[7] ?? "0"}`) * 1000;
  const offset = match[8];
  if (offset !== undefined && offset !== "Z") {
    const hours = Number(offset.slice(1, 3));
    const minutes = Number(offset.slice(4, 6));
    if (hours > 23 || minutes > 59) return null;
  }
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const time = Date.UTC(year, month - 1, day, hour, minute, second, Math.floor(millis));
  const check = new Date(time);
  // Date.UTC rolls 2026-02-30 over to March: a day that does not exist does not come back unchanged.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return time;
}
