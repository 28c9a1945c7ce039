/** Lists default to 50 per page. */
export const DEFAULT_PAGE_LIMIT = 50;

/**
 * One page of a keyset-paged list as the API answers it (`{ data, next_cursor }`). Asks the store for
 * one row more than the page holds: that row's presence is what says another page follows.
 */
export async function pageOf<Row, View>(
  requestedLimit: number | undefined,
  fetchRows: (limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => string,
  view: (row: Row) => View,
): Promise<{ data: View[]; next_cursor: string | null }> {
  const limit = requestedLimit ?? DEFAULT_PAGE_LIMIT;
  const rows = await fetchRows(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(view), next_cursor: rows.length > limit && last ? cursorOf(last) : null };
}
