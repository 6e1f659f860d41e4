import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { browserClient, type LogDetail } from '../../api/client.ts';
import { createAppStores, StoresContext } from '../../stores/app-stores.ts';
import { memoryStorage } from '../../test-engine.ts';
import { Inspector } from './inspector.tsx';

// The screens a test breaks: each throws while its name is in `broken`, and is itself otherwise (vi.mock is hoisted, so these are too).
const { broken, breakable } = vi.hoisted(() => {
  const broken = new Set<string>();
  const breakable = async (path: string, name: string): Promise<Record<string, unknown>> => {
    const real = await vi.importActual<Record<string, unknown>>(path);
    const Real = real[name] as () => ReactNode;
    const Breakable = () => {
      if (broken.has(name)) throw new Error(`${name} broke`);
      return <Real />;
    };
    return { ...real, [name]: Breakable };
  };
  return { broken, breakable };
});
vi.mock('../endpoints/endpoints-pane.tsx', () => breakable('../endpoints/endpoints-pane.tsx', 'EndpointsPane'));
vi.mock('../deliveries/deliveries-pane.tsx', () => breakable('../deliveries/deliveries-pane.tsx', 'DeliveriesPane'));
vi.mock('../metrics/metrics-screen.tsx', () => breakable('../metrics/metrics-screen.tsx', 'MetricsScreen'));
vi.mock('../settings/settings-screen.tsx', () => breakable('../settings/settings-screen.tsx', 'SettingsScreen'));

function showInspector(hash = '#/') {
  window.location.hash = hash;
  const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
  render(
    <StoresContext.Provider value={stores}>
      <Inspector />
    </StoresContext.Provider>,
  );
  return stores;
}

/** Each pane of the inspector sits in its own error boundary (shared/view-boundary.tsx). */
describe('the inspector, when a pane fails', () => {
  // React reports each caught error on the console; the alert is what is checked here.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    cleanup();
    broken.clear();
    window.location.hash = '';
  });

  test('a delivery that breaks the detail pane leaves the endpoints and the deliveries working', () => {
    window.location.hash = '#/';
    const stores = createAppStores(browserClient('http://127.0.0.1:9'), memoryStorage());
    // A detail missing its headers: the detail pane throws drawing it.
    stores.selection.setState({ selectedId: 'log_1', detail: { id: 'log_1', query: {} } as unknown as LogDetail });
    render(
      <StoresContext.Provider value={stores}>
        <Inspector />
      </StoresContext.Provider>,
    );
    expect(screen.getByRole('alert').textContent).toMatch(/^The delivery could not be shown\. /);
    expect(screen.getByRole('region', { name: 'Deliveries pane' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New endpoint' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Delivery' })).toBeNull();
  });

  test('the endpoints or the deliveries failing leave the other two panes', () => {
    broken.add('EndpointsPane');
    showInspector();
    expect(screen.getByRole('alert').textContent).toBe(
      'The endpoints could not be shown. The rest of Hookscope still works.EndpointsPane brokeTry again',
    );
    expect(screen.getByRole('region', { name: 'Deliveries pane' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Delivery' })).toBeInTheDocument();
    cleanup();

    broken.clear();
    broken.add('DeliveriesPane');
    showInspector();
    expect(screen.getByRole('alert').textContent).toMatch(/^The deliveries could not be shown\. /);
    expect(screen.getByRole('button', { name: 'New endpoint' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Delivery' })).toBeInTheDocument();
  });

  test('Metrics or Settings failing leave the top bar, to go elsewhere', () => {
    broken.add('MetricsScreen');
    showInspector('#/metrics');
    expect(screen.getByRole('alert').textContent).toMatch(/^Metrics could not be shown\. /);
    expect(screen.getByRole('link', { name: 'Deliveries' })).toBeInTheDocument();
    cleanup();

    broken.add('SettingsScreen');
    showInspector('#/settings');
    expect(screen.getByRole('alert').textContent).toMatch(/^Settings could not be shown\. /);
    expect(screen.getByRole('link', { name: 'Deliveries' })).toBeInTheDocument();
  });
});
