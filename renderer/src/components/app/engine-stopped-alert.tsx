import { inDesktopApp, serveCommand } from '../../lib/engine-start.ts';
import { useEngineStopped } from '../shared/engine-gate.ts';

/** How to bring the engine back, where this page runs. */
function HowToStart() {
  if (inDesktopApp(navigator.userAgent)) {
    return (
      <span>The desktop app runs the engine itself: quit Hookscope (from its tray or app menu) and open it again.</span>
    );
  }
  const command = serveCommand(window.location);
  if (command === null) {
    return (
      <span>
        It runs on {window.location.host}: whoever runs it there can start it again. This page reconnects by itself.
      </span>
    );
  }
  return (
    <span>
      Start it again with <code>{command}</code> (or <code>npm start</code>) and the options used before; this page
      reconnects by itself.
    </span>
  );
}

/**
 * Says, at the top of every screen, that the engine stopped (stores/live-store.ts: the
 * live connection down for a while and nothing answering), and how to start it. Until it
 * is back, the controls that need it are disabled (shared/engine-gate.ts).
 */
export function EngineStoppedAlert() {
  const stopped = useEngineStopped();
  if (!stopped) return null;
  return (
    <div role="alert" className="engine-stopped">
      <strong>The engine stopped; nothing is being received</strong>
      <HowToStart />
    </div>
  );
}
