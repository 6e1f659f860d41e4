import type { Settings } from '../../lib/settings-fields.ts';

/** The listeners' ports: read-only here, since changing one needs a restart; says how. */
export function PortsInfo({ ports }: { ports: Settings['ports'] }) {
  const rows = [
    ['API and UI port', ports.api],
    ['Receiver port', ports.receiver],
  ] as const;
  return (
    <section className="settings-section" aria-labelledby="ports-title">
      <h3 id="ports-title">Ports</h3>
      <p className="hint">
        Changing a port needs a restart of the engine: use the flag of <code>hookscope serve</code>, the environment
        variable, or the key in config.json. 0 picks a free port.
      </p>
      <table className="ports">
        <caption className="visually-hidden">Ports and how to change them</caption>
        <thead>
          <tr>
            <th scope="col">Listener</th>
            <th scope="col">Port</th>
            <th scope="col">Flag</th>
            <th scope="col">Environment</th>
            <th scope="col">config.json</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, p]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{p.port}</td>
              <td>
                <code>{p.flag}</code>
              </td>
              <td>
                <code>{p.env}</code>
              </td>
              <td>
                <code>{p.configKey}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
