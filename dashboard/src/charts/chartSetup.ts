import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { formatMoney, formatQuantity } from '../format';

// Only what the dashboard draws: bars and lines (filled under, for the depth chart) on category/linear axes, with tooltips and a legend.
Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Filler, Tooltip, Legend);

Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#475569';
Chart.defaults.borderColor = '#e2e8f0';

export { Chart };

export const COLORS = {
  positive: '#16a34a',
  negative: '#dc2626',
  line: '#2563eb',
  neutral: '#94a3b8',
  gross: '#6366f1',
  net: '#f59e0b',
  bids: '#16a34a',
  bidsFill: 'rgba(22, 163, 74, 0.18)',
  asks: '#dc2626',
  asksFill: 'rgba(220, 38, 38, 0.18)',
  volume: 'rgba(148, 163, 184, 0.6)',
};

/** Money in a tooltip: to the cent, then the exact figure as the API sent it when the cents are not all of it. */
export function moneyWithExact(value: string): string {
  const shown = formatMoney(value);
  // Compared as numbers are written: trailing zeros trimmed, no separators.
  return formatQuantity(shown.replace(/,/g, '')) === formatQuantity(value) ? shown : `${shown} (${value})`;
}
