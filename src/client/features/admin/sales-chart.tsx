import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import type { SalesPoint } from '#shared/dashboard.js';

/** The chart library, in a chunk of its own that only the admin's dashboard asks for. */
const loadChartLibrary = () => Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([library]) => library.default);

const HEIGHT = 220;

interface ChartProps {
  points: SalesPoint[];
  formatAmount: (minor: number) => string;
  formatDay: (isoDate: string) => string;
}

/**
 * Revenue per day or week as bars (uPlot), as wide as its box at any screen width. The dashboard gives the same figures as a table beside it,
 * for screen readers and for reading exact amounts, so the drawing itself is hidden from them.
 */
export function SalesChart({ points, formatAmount, formatDay }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let cancelled = false;
    void loadChartLibrary().then((UPlot) => {
      if (cancelled) return;
      chart = draw(UPlot, element, { points, formatAmount, formatDay });
      resize = new ResizeObserver(() => chart!.setSize({ width: element.clientWidth, height: HEIGHT }));
      resize.observe(element);
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      chart?.destroy();
    };
  }, [points, formatAmount, formatDay]);

  return <div ref={box} className="sales-chart" aria-hidden="true" />;
}

/** The bars of the points in the element, coloured as the shop's buttons. */
function draw(UPlot: typeof uPlot, element: HTMLDivElement, { points, formatAmount, formatDay }: ChartProps): uPlot {
  const accent = getComputedStyle(element).getPropertyValue('--color-primary').trim() || '#9d2b6b';
  return new UPlot(
    {
      width: element.clientWidth,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false }, y: { range: (_self, _min, max) => [0, Math.max(max, 1)] } },
      axes: [
        { values: (_self, ticks) => ticks.map((tick) => (Number.isInteger(tick) && points[tick] ? formatDay(points[tick]!.start) : '')), space: 70 },
        { values: (_self, ticks) => ticks.map((tick) => formatAmount(Math.round(tick))), size: 60 },
      ],
      series: [{}, { fill: accent, stroke: accent, paths: UPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } }],
    },
    [points.map((_, index) => index), points.map((point) => point.revenueMinor)],
    element,
  );
}
