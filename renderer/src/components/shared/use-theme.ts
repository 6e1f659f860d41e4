import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../../stores/app-stores.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Whether the page is dark now: the choice, or for "system" the OS setting (followed live). */
export function useIsDark(): boolean {
  const { theme } = useStores();
  const choice = useSlice(theme, (s) => s.choice);
  const [osDark, setOsDark] = useState(() => window.matchMedia(DARK_QUERY).matches);
  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const onChange = (): void => setOsDark(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return choice === 'dark' || (choice === 'system' && osDark);
}

/** Puts the theme on <html data-theme>, which the stylesheet's colours follow. */
export function useTheme(): void {
  const dark = useIsDark();
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
}
