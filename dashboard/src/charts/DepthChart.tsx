import { useEffect, useRef, useState } from 'react';
import { formatPrice, formatQuantity, formatQuantityNumber, tickPlaces } from '../format';
import { depthOf, type DepthPoint } from '../marketBook';
import type { SideBook } from '../types';
import { COLORS, Chart } from './chartSetup';

/** The mid as a vertical line from the axis to the deepest side's total. */
function midLine(mid: string | null, bids: DepthPoint[], asks: DepthPoint[]): DepthPoint[] {
  if (mid === null) return [];
  const top = Math.max(0, ...bids.map((p) => p.y), ...asks.map((p) => p.y));
  return [
    { x: Number(mid), y: 0, price: mid, quantity: '0' },
    { x: Number(mid), y: top, price: mid, quantity: '0' },
  ];
}

/**
 * The YES book's depth: left of the mid, the contracts bid at each price or higher (stepping down
 * towards the best bid); right of it, the contracts asked at each price or lower (stepping up from
 * the best ask); the mid a dashed line. Drawn once, then updated in place as the book changes
 * (animations off: every frame is the final picture); the wrapper carries data-ready="true" once
 * drawn, and the best levels and level counts as data attributes.
 */
export function DepthChart({ book, mid, tickSize }: { book: SideBook; mid: string | null; tickSize: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<Chart<'line', DepthPoint[]> | null>(null);
  const [ready, setReady] = useState(false);
  const depth = depthOf(book);
  const datasets = [depth.bids, depth.asks, midLine(mid, depth.bids, depth.asks)];
  const latest = useRef(datasets);
  latest.current = datasets;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setReady(false);
    const [bids, asks, midPoints] = latest.current;
    const price = (value: string | number) => formatPrice(Number(value).toFixed(6), tickSize);
    const chart = new Chart<'line', DepthPoint[]>(canvas, {
      type: 'line',
      data: {
        datasets: [
          { label: 'Bids (YES)', data: bids!, stepped: 'before', fill: 'origin', borderColor: COLORS.bids, backgroundColor: COLORS.bidsFill, borderWidth: 2, pointRadius: 0 },
          { label: 'Asks (YES)', data: asks!, stepped: 'after', fill: 'origin', borderColor: COLORS.asks, backgroundColor: COLORS.asksFill, borderWidth: 2, pointRadius: 0 },
          { label: 'Mid', data: midPoints!, borderColor: COLORS.neutral, borderDash: [4, 4], borderWidth: 1, pointRadius: 0 },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'YES price' }, ticks: { callback: price, precision: tickPlaces(tickSize) }, grid: { display: false } },
          y: { beginAtZero: true, title: { display: true, text: 'Contracts' }, ticks: { callback: (value) => formatQuantityNumber(Number(value)) } },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            filter: (item) => item.datasetIndex < 2,
            callbacks: {
              title: (items) => {
                const point = items[0]?.raw as DepthPoint | undefined;
                return point ? `YES ${formatPrice(point.price, tickSize)}` : '';
              },
              label: (item) => {
                const point = item.raw as DepthPoint;
                const where = item.datasetIndex === 0 ? 'bid at this price or higher' : 'asked at this price or lower';
                return `${formatQuantityNumber(point.y)} ${where} (${formatQuantity(point.quantity)} at this price)`;
              },
            },
          },
        },
      },
      plugins: [{ id: 'readyFlag', afterRender: () => setReady(true) }],
    });
    chartRef.current = chart;
    return () => {
      chartRef.current = null;
      chart.destroy();
    };
  }, [tickSize]);

  // The book changed: the same chart, new points.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    latest.current.forEach((points, index) => {
      chart.data.datasets[index]!.data = points;
    });
    chart.update('none');
  }, [book, mid]);

  const empty = book.bids.length === 0 && book.asks.length === 0;
  return (
    <div
      className="chart-box"
      data-testid="depth-chart"
      data-ready={ready ? 'true' : undefined}
      data-best-bid={book.bids[0]?.price}
      data-best-ask={book.asks[0]?.price}
      data-bid-levels={book.bids.length}
      data-ask-levels={book.asks.length}
    >
      <canvas ref={canvasRef} role="img" aria-label="Depth of the YES book: contracts bid and asked by price" />
      {empty && <p className="chart-empty">No orders in the book.</p>}
    </div>
  );
}
