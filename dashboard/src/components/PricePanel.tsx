import { useEffect, useRef, useState } from 'react';
import { segment } from '../api';
import { PriceChart } from '../charts/PriceChart';
import type { CandleInterval, Candles } from '../types';
import { useApiData } from '../useApiData';

const INTERVALS: { value: CandleInterval; label: string }[] = [
  { value: '1m', label: '1 min' },
  { value: '1h', label: '1 hour' },
  { value: '1d', label: '1 day' },
];

/** Candles are read again this long after a trade: a burst of trades is one read. */
const CANDLES_READ_DELAY_MS = 300;

/**
 * The price chart of GET /v1/markets/{id}/candles, by minute unless another interval is chosen
 * (test ids `candles-interval-<1m|1h|1d>`). `tradesSeen` counts the trades the stream brought:
 * each change reads the candles again (soon after, once for a burst), so the last candle follows.
 */
export function PricePanel({ marketId, tickSize, tradesSeen }: { marketId: string; tickSize: string; tradesSeen: number }) {
  const [interval, setChosenInterval] = useState<CandleInterval>('1m');
  const candles = useApiData<Candles>(`/v1/markets/${segment(marketId)}/candles`, { interval });
  const { reload } = candles;

  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(pending.current), []);
  useEffect(() => {
    if (tradesSeen === 0) return;
    pending.current ??= setTimeout(() => {
      pending.current = undefined;
      reload();
    }, CANDLES_READ_DELAY_MS);
  }, [tradesSeen, reload]);

  return (
    <div className="panel">
      <div className="panel-head">
        <h3>Price</h3>
        <div className="panel-tools">
          <div className="segmented" role="group" aria-label="Candle interval">
            {INTERVALS.map((option) => (
              <button
                key={option.value}
                type="button"
                data-testid={`candles-interval-${option.value}`}
                className={interval === option.value ? 'active' : undefined}
                aria-pressed={interval === option.value}
                onClick={() => setChosenInterval(option.value)}
              >
                {option.label}
              </button>
            ))}
          </div>
        </div>
      </div>
      {candles.data ? <PriceChart answer={candles.data} tickSize={tickSize} /> : <div className="chart-box chart-loading">Loading…</div>}
    </div>
  );
}
