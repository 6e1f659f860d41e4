import { VIEW_HASH, type View } from '../../lib/view-route.ts';
import { useView } from '../app/use-view.ts';

const LINKS: [View, string][] = [
  ['deliveries', 'Deliveries'],
  ['metrics', 'Metrics'],
  ['settings', 'Settings'],
];

/** The screens of the main area, as links: each has its own address, so reload, Back and a new tab keep it. */
export function MainNav() {
  const view = useView();
  return (
    <nav className="main-nav" aria-label="Main">
      {LINKS.map(([v, label]) => (
        <a key={v} href={VIEW_HASH[v]} aria-current={view === v ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}
