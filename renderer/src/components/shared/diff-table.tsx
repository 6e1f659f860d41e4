export interface DiffRow {
  kind: string;
  name: string;
  a: string;
  b: string;
}

/** One row per difference: what (a header, a JSON path), how (added, removed, changed), A's value, B's value. */
export function DiffTable({ first, rows }: { first: string; rows: DiffRow[] }) {
  return (
    <table className="kv diff">
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">Change</th>
          <th scope="col">A</th>
          <th scope="col">B</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.kind}-${r.name}`} className={`diff-${r.kind}`}>
            <th scope="row">{r.name}</th>
            <td>{r.kind}</td>
            <td>{r.a}</td>
            <td>{r.b}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
