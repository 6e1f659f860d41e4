import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { browserClient } from './api/client.ts';
import { App } from './components/app/app.tsx';
import { createAppStores, StoresContext } from './stores/app-stores.ts';
import { connectLive } from './stores/connect-live.ts';
import './styles.css';

const stores = createAppStores(browserClient(), window.localStorage, window.hookscopeDesktop ?? null);
connectLive(stores);
void stores.desktop.getState().load();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoresContext.Provider value={stores}>
      <App />
    </StoresContext.Provider>
  </StrictMode>,
);
