import { useEffect, useRef, useState } from 'react';
import { formatMoneyNumber } from '../format';
import type { Market, RiskStats } from '../types';
import { useMarkets } from '../useMarkets';
import { COLORS, Chart, moneyWithExact } from './chartSetup';

export type ExposureView = 'venue' | 'market';

/** How many markets the by-market view plots: the largest by gross exposure. */
const TOP_MARKETS = 12;
/** A market's title on the axis is cut to this many characters; the tooltip has all of it. */
const LABEL_CHARS = 36;

interface Bar {
  /** On the axis. */
  label: string;
  /** In the tooltip's title. */
  name: string;
  gross: string;
  net: string;
}

const cut = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

/** The markets the by-market view plots: the largest by gross exposure (the order of the bars only; the figures shown are the strings). */
const topMarkets = (stats: RiskStats) =>
  [...stats.by_market].sort((a, b) => Number(b.gross_exposure) - Number(a.gross_exposure)).slice(0, TOP_MARKETS);

function barsOf(stats: RiskStats, view: ExposureView, marketOf: (id: string) => Market | undefined): Bar[] {
  if (view === 'venue') {
    return stats.by_venue.map((row) => ({ label: row.venue, name: row.venue, gross: row.gross_exposure, net: row.net_exposure }));
  }
  return topMarkets(stats).map((row) => {
    const market = marketOf(row.market_id);
    const name = market ? `${market.title} (${row.venue} ${market.venue_market_id})` : `${row.market_id} (${row.venue})`;
    return { label: market ? cut(market.title) : `${row.market_id} (${row.venue})`, name, gross: row.gross_exposure, net: row.net_exposure };
  });
}

/** Gross and net exposure by venue, or by market (largest first, horizontal bars, named by title). */
export function ExposureChart({ stats, view }: { stats: RiskStats; view: ExposureView }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);
  const marketOf = useMarkets(view === 'market' ? topMarkets(stats).map((row) => row.market_id) : []);
  const bars = barsOf(stats, view, marketOf);
  // Drawn again when a market's title arrives: the labels change.
  const labels = bars.map((bar) => bar.name).join('\n');

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setReady(false);
    const rows = barsOf(stats, view, marketOf);
    const money = { callback: (value: string | number) => formatMoneyNumber(Number(value)) };
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
        // The value axis is money: x for horizontal bars, y for vertical ones.
        scales: view === 'market' ? { x: { ticks: money } } : { y: { ticks: money } },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              title: (items) => (items[0] ? (rows[items[0].dataIndex]?.name ?? '') : ''),
              label: (item) => {
                const row = rows[item.dataIndex]!;
                return `${item.dataset.label ?? ''}: ${moneyWithExact(item.datasetIndex === 0 ? row.gross : row.net)}`;
              },
            },
          },
        },
      },
      plugins: [{ id: 'readyFlag', afterRender: () => setReady(true) }],
    });
    return () => chart.destroy();
    // `labels` stands for marketOf's answers: a new title redraws.
  }, [stats, view, labels]);

  return (
    <div className="chart-box" data-testid="exposure-chart" data-ready={ready ? 'true' : undefined} data-view={view}>
      <canvas ref={canvasRef} role="img" aria-label={`Gross and net exposure by ${view}`} />
      {bars.length === 0 && <p className="chart-empty">No exposure.</p>}
    </div>
  );
}
