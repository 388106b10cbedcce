/** How many of an id's last characters are always shown: ids made in the same millisecond differ only there. */
const TAIL = 6;

/**
 * An id in a table: its start (to the width of `.id-head`, then an ellipsis) and its last characters,
 * so that wide tables fit. The full id is the title, and still the text (find and copy see all of it).
 */
export function Id({ value, note }: { value: string; /** More for the title, after the id. */ note?: string | null }) {
  return (
    <code className="id" title={note ? `${value}\n${note}` : value}>
      <span className="id-head">{value.slice(0, -TAIL)}</span>
      {value.slice(-TAIL)}
    </code>
  );
}
