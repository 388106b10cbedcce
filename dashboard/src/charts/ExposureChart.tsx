import { useEffect, useRef, useState } from 'react';
import type { RiskStats } from '../types';
import { COLORS, Chart } from './chartSetup';

export type ExposureView = 'venue' | 'market';

/** How many markets the by-market view plots: the largest by gross exposure. */
const TOP_MARKETS = 12;

interface Bar {
  label: string;
  gross: string;
  net: string;
}

function barsOf(stats: RiskStats, view: ExposureView): Bar[] {
  if (view === 'venue') {
    return stats.by_venue.map((row) => ({ label: row.venue, gross: row.gross_exposure, net: row.net_exposure }));
  }
  return [...stats.by_market]
    .sort((a, b) => Number(b.gross_exposure) - Number(a.gross_exposure))
    .slice(0, TOP_MARKETS)
    .map((row) => ({ label: `${row.market_id} (${row.venue})`, gross: row.gross_exposure, net: row.net_exposure }));
}

/** Gross and net exposure by venue, or by market (largest first, horizontal bars). */
export function ExposureChart({ stats, view }: { stats: RiskStats; view: ExposureView }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);
  const bars = barsOf(stats, view);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setReady(false);
    const rows = barsOf(stats, view);
    const chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: rows.map((row) => row.label),
        datasets: [
          { label: 'Gross exposure', data: rows.map((row) => Number(row.gross)), backgroundColor: COLORS.gross },
          { label: 'Net exposure', data: rows.map((row) => Number(row.net)), backgroundColor: COLORS.net },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        indexAxis: view === 'market' ? 'y' : 'x',
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              label: (item) => {
                const row = rows[item.dataIndex];
                return `${item.dataset.label ?? ''}: ${item.datasetIndex === 0 ? row.gross : row.net}`;
              },
            },
          },
        },
      },
      plugins: [{ id: 'readyFlag', afterRender: () => setReady(true) }],
    });
    return () => chart.destroy();
  }, [stats, view]);

  return (
    <div className="chart-box" data-testid="exposure-chart" data-ready={ready ? 'true' : undefined} data-view={view}>
      <canvas ref={canvasRef} role="img" aria-label={`Gross and net exposure by ${view}`} />
      {bars.length === 0 && <p className="chart-empty">No exposure.</p>}
    </div>
  );
}
