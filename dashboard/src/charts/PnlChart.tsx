import { useEffect, useRef, useState } from 'react';
import { formatMoneyNumber } from '../format';
import type { PnlDay } from '../types';
import { COLORS, Chart, moneyWithExact } from './chartSetup';

/**
 * Daily realized P&L as bars (green up, red down) and the running total as a line on its own axis.
 * Animations are off, so the first render is the final picture; the wrapper then carries
 * data-ready="true". Axes and tooltips show money to the cent (format.ts); a tooltip adds the exact
 * figure as the API sent it when the cents are not all of it.
 */
export function PnlChart({ days }: { days: PnlDay[] }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    setReady(false);
    const daily = days.map((day) => Number(day.realized_pnl));
    const chart = new Chart(canvas, {
      data: {
        labels: days.map((day) => day.date),
        datasets: [
          {
            type: 'bar',
            label: 'Daily realized P&L',
            data: daily,
            backgroundColor: daily.map((value) => (value < 0 ? COLORS.negative : COLORS.positive)),
            yAxisID: 'y',
            order: 2,
          },
          {
            type: 'line',
            label: 'Cumulative',
            data: days.map((day) => Number(day.cumulative_realized_pnl)),
            borderColor: COLORS.line,
            backgroundColor: COLORS.line,
            borderWidth: 2,
            pointRadius: 0,
            tension: 0,
            yAxisID: 'cumulative',
            order: 1,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 10 }, grid: { display: false } },
          y: { position: 'left', title: { display: true, text: 'Daily ($)' }, ticks: { callback: (value) => formatMoneyNumber(Number(value)) } },
          cumulative: {
            position: 'right',
            title: { display: true, text: 'Cumulative ($)' },
            grid: { drawOnChartArea: false },
            ticks: { callback: (value) => formatMoneyNumber(Number(value)) },
          },
        },
        plugins: {
          legend: {
            position: 'bottom',
            labels: {
              // The bars are green or red by sign; their legend swatch shows both halves as one neutral mark.
              generateLabels: (chart) =>
                Chart.defaults.plugins.legend.labels
                  .generateLabels(chart)
                  .map((label) => (label.datasetIndex === 0 ? { ...label, fillStyle: COLORS.neutral, strokeStyle: COLORS.neutral } : label)),
            },
          },
          tooltip: {
            callbacks: {
              label: (item) => {
                const day = days[item.dataIndex];
                const value = item.datasetIndex === 0 ? day.realized_pnl : day.cumulative_realized_pnl;
                return `${item.dataset.label ?? ''}: ${moneyWithExact(value)}`;
              },
              afterBody: (items) => {
                const day = items[0] ? days[items[0].dataIndex] : undefined;
                return day ? [`Fees: ${moneyWithExact(day.fees)}`, `Fills: ${day.fills}`, `Volume: ${moneyWithExact(day.volume)}`] : [];
              },
            },
          },
        },
      },
      plugins: [{ id: 'readyFlag', afterRender: () => setReady(true) }],
    });
    return () => chart.destroy();
  }, [days]);

  return (
    <div className="chart-box" data-testid="pnl-chart" data-ready={ready ? 'true' : undefined}>
      <canvas ref={canvasRef} role="img" aria-label="Daily realized P&L and its running total" />
    </div>
  );
}
