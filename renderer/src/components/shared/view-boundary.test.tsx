import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ViewBoundary } from './view-boundary.tsx';

/** Throws while `failing.now` is set, as a view with a bug does on some data. */
function Fragile({ failing }: { failing: { now: boolean } }) {
  if (failing.now) throw new Error('Cannot read properties of undefined (reading "map")');
  return <p>Drawn.</p>;
}

describe('a view that fails', () => {
  // React reports each caught error on the console; the alert is what is checked here.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(cleanup);

  test('shows its error in an alert in its place, beside panes that keep working; "Try again" draws it again', () => {
    const failing = { now: true };
    render(
      <div>
        <ViewBoundary what="The deliveries" className="pane">
          <Fragile failing={failing} />
        </ViewBoundary>
        <button type="button">Still here</button>
      </div>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveClass('pane', 'view-failed');
    expect(alert.textContent).toBe(
      'The deliveries could not be shown. The rest of Hookscope still works.' +
        'Cannot read properties of undefined (reading "map")Try again',
    );
    expect(screen.getByRole('button', { name: 'Still here' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    failing.now = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Drawn.')).toBeInTheDocument();
  });

  test('opening another delivery (a new reset key) tries the view again by itself', () => {
    const failing = { now: true };
    const view = (key: string) => (
      <ViewBoundary what="The delivery" resetKey={key}>
        <Fragile failing={failing} />
      </ViewBoundary>
    );
    const { rerender } = render(view('log_1'));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    failing.now = false;
    rerender(view('log_1'));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    rerender(view('log_2'));
    expect(screen.getByText('Drawn.')).toBeInTheDocument();
  });
});
