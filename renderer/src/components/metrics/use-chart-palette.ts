import { useMemo, useSyncExternalStore } from 'react';

/** The colours a canvas chart draws with; the stylesheet defines them per theme (--chart-*). */
export interface ChartPalette {
  success: string;
  failed: string;
  rejected: string;
  grid: string;
  axis: string;
  font: string;
}

function subscribe(onChange: () => void): () => void {
  // useTheme (an effect of <App>, which runs after its children's) sets data-theme:
  // watching the attribute reads the colours once the new theme is in force.
  const watch = new MutationObserver(onChange);
  watch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => watch.disconnect();
}

const themeNow = (): string => document.documentElement.dataset.theme ?? '';

/**
 * The chart colours of the theme in force, read from the stylesheet's CSS
 * variables: a canvas cannot use var() itself, and one source of colours keeps
 * the charts' contrast with the page's in both themes.
 */
export function useChartPalette(): ChartPalette {
  const theme = useSyncExternalStore(subscribe, themeNow);
  return useMemo(() => {
    void theme; // the dependency: a theme change re-reads the variables
    const css = getComputedStyle(document.documentElement);
    const v = (name: string): string => css.getPropertyValue(name).trim();
    return {
      success: v('--chart-success'),
      failed: v('--chart-failed'),
      rejected: v('--chart-rejected'),
      grid: v('--chart-grid'),
      axis: v('--chart-axis'),
      font: `12px ${css.fontFamily || 'system-ui, sans-serif'}`,
    };
  }, [theme]);
}
