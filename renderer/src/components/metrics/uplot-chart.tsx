import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface Props {
  /** Everything but the size; a new object rebuilds the chart (a theme or a shape change), so memoise it. */
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  height: number;
}

/**
 * uPlot in a React element: the chart is made in an effect, follows its box's
 * width, takes new data without being rebuilt, and is destroyed on unmount.
 * uPlot draws on a canvas and sets styles through the CSSOM (its stylesheet is a
 * file in the bundle): nothing inline that the page's CSP would refuse.
 */
export function UplotChart({ options, data, height }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = new uPlot({ ...options, width: el.clientWidth, height }, latest.current, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [options, height]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return <div className="uplot-box" ref={box} />;
}
