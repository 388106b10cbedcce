import { useEffect, useRef, useState } from 'react';
import { formatPrice, formatQuantity, formatQuantityNumber, tickPlaces } from '../format';
import type { Candle, CandleInterval, Candles } from '../types';
import { COLORS, Chart } from './chartSetup';

const PERIOD_MS: Record<CandleInterval, number> = { '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 };
/** The most periods the chart spreads candles over (the API answers at most 1,000). */
const MAX_PERIODS = 1000;

/** One period on the chart: its candle, or none (no trade: the last close carried, no bar). */
interface Period {
  start: string;
  close: string;
  candle: Candle | undefined;
}

/**
 * The periods from the first candle to the one holding `to` (now), each with its candle or, where
 * nothing traded, the last close carried forward (the API leaves such periods out). Candles that do
 * not start on the interval's boundaries are shown as they came, one after the other.
 */
function periodsOf(answer: Candles): Period[] {
  const step = PERIOD_MS[answer.interval];
  const first = answer.candles[0];
  if (!first) return [];
  const origin = Date.parse(first.start);
  const aligned = answer.candles.every((candle) => (Date.parse(candle.start) - origin) % step === 0);
  if (!aligned || !step) return answer.candles.map((candle) => ({ start: candle.start, close: candle.close, candle }));
  const byStart = new Map(answer.candles.map((candle) => [Date.parse(candle.start), candle]));
  const last = Math.max(Date.parse(answer.to), Date.parse(answer.candles.at(-1)!.end));
  const periods: Period[] = [];
  let close = first.close;
  for (let start = origin; start < last && periods.length < MAX_PERIODS; start += step) {
    const candle = byStart.get(start);
    if (candle) close = candle.close;
    periods.push({ start: new Date(start).toISOString(), close, candle });
  }
  return periods;
}

/** A period's label on the axis (UTC): the time of day for minutes, day and hour for hours, the date for days. */
function labelOf(start: string, interval: CandleInterval): string {
  const text = new Date(start).toISOString();
  if (interval === '1m') return text.slice(11, 16);
  if (interval === '1h') return `${text.slice(5, 10)} ${text.slice(11, 16)}`;
  return text.slice(0, 10);
}

/**
 * The market's candles: each period's close (the YES price) as a line on the left axis, the
 * contracts traded as bars on the right one (none where the venue gives no volume, or nothing
 * traded). Animations off; the wrapper carries data-ready="true" once drawn, and the interval, the
 * number of candles and the last close as data attributes.
 */
export function PriceChart({ answer, tickSize }: { answer: Candles; tickSize: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setReady(false);
    const periods = periodsOf(answer);
    const price = (value: string | number) => formatPrice(Number(value).toFixed(6), tickSize);
    const chart = new Chart(canvas, {
      data: {
        labels: periods.map((period) => labelOf(period.start, answer.interval)),
        datasets: [
          {
            type: 'line',
            label: 'Close (YES)',
            data: periods.map((period) => Number(period.close)),
            borderColor: COLORS.line,
            backgroundColor: COLORS.line,
            borderWidth: 2,
            // A dot where something traded; none where the close is carried.
            pointRadius: periods.map((period) => (period.candle ? 2.5 : 0)),
            tension: 0,
            yAxisID: 'y',
            order: 1,
          },
          {
            type: 'bar',
            label: 'Volume',
            data: periods.map((period) => (period.candle?.volume == null ? null : Number(period.candle.volume))),
            backgroundColor: COLORS.volume,
            yAxisID: 'volume',
            order: 2,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { title: { display: true, text: 'UTC' }, ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 8 }, grid: { display: false } },
          // Steps of whole ticks at least: no two labels the same once rounded to the tick.
          y: { position: 'left', title: { display: true, text: 'YES price' }, ticks: { callback: price, precision: tickPlaces(tickSize) } },
          volume: {
            position: 'right',
            beginAtZero: true,
            title: { display: true, text: 'Contracts' },
            grid: { drawOnChartArea: false },
            ticks: { callback: (value) => formatQuantityNumber(Number(value)) },
          },
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            filter: (item) => item.datasetIndex === 0,
            callbacks: {
              title: (items) => {
                const period = items[0] ? periods[items[0].dataIndex] : undefined;
                return period ? `${new Date(period.start).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
              },
              label: (item) => {
                const period = periods[item.dataIndex]!;
                const candle = period.candle;
                if (!candle) return `No trades (last close ${formatPrice(period.close, tickSize)})`;
                return [
                  `Close ${formatPrice(candle.close, tickSize)} (open ${formatPrice(candle.open, tickSize)}, high ${formatPrice(candle.high, tickSize)}, low ${formatPrice(candle.low, tickSize)})`,
                  `Volume ${formatQuantity(candle.volume)}`,
                ];
              },
            },
          },
        },
      },
      plugins: [{ id: 'readyFlag', afterRender: () => setReady(true) }],
    });
    return () => chart.destroy();
  }, [answer, tickSize]);

  return (
    <div
      className="chart-box"
      data-testid="price-chart"
      data-ready={ready ? 'true' : undefined}
      data-interval={answer.interval}
      data-candles={answer.candles.length}
      data-last-close={answer.candles.at(-1)?.close}
    >
      <canvas ref={canvasRef} role="img" aria-label={`Closing YES price and volume by ${answer.interval} period`} />
      {answer.candles.length === 0 && <p className="chart-empty">No trades in this period.</p>}
    </div>
  );
}
