/**
 * The dashboard's display rules (dashboard/src/format.ts), without a browser: what the page's
 * figures show. Money to the cent, half away from zero, on the decimal string itself (carries
 * included); prices to the tick, or trimmed with at least 2 places; quantities trimmed.
 */
import { formatMoney, formatMoneyNumber, formatPrice, formatQuantity, formatShare, roundDecimal, tickPlaces } from '../../dashboard/src/format';

it('shows money to the cent, half away from zero, thousands separated, never -0.00', () => {
  expect(formatMoney('3351.23000705')).toBe('3,351.23');
  expect(formatMoney('88.51999295')).toBe('88.52');
  expect(formatMoney('999.995')).toBe('1,000.00');
  expect(formatMoney('-0.005')).toBe('-0.01');
  expect(formatMoney('-0.004')).toBe('0.00');
  expect(formatMoney('-1234567.8')).toBe('-1,234,567.80');
  expect(formatMoney('1990')).toBe('1,990.00');
  expect(formatMoney('123456789012345678.999999')).toBe('123,456,789,012,345,679.00'); // no float on the way
  expect(formatMoney(null)).toBe('—');
  expect(formatMoney('not a number')).toBe('not a number');
  expect(formatMoneyNumber(0.1 + 0.2)).toBe('0.30');
  expect(roundDecimal('2.345', 2)).toBe('2.35');
});

it('shows prices to the tick, or trimmed with at least 2 places when the tick is unknown', () => {
  expect(formatPrice('0.4', '0.01')).toBe('0.40');
  expect(formatPrice('0.435', '0.0100')).toBe('0.44');
  expect(formatPrice('0.905', '0.001')).toBe('0.905');
  expect(formatPrice('0.54666667', '0.01')).toBe('0.55');
  expect(formatPrice('0.4350')).toBe('0.435');
  expect(formatPrice('0.5')).toBe('0.50');
  expect(formatPrice(null, '0.01')).toBe('—');
  expect([tickPlaces('0.0100'), tickPlaces('1'), tickPlaces('0'), tickPlaces(undefined)]).toEqual([2, 0, undefined, undefined]);
});

it('shows quantities as sent, trailing zeros trimmed, and shares as percentages', () => {
  expect(formatQuantity('10.00')).toBe('10');
  expect(formatQuantity('1.50')).toBe('1.5');
  expect(formatQuantity('0')).toBe('0');
  expect(formatShare('0.4500')).toBe('45%');
  expect(formatShare('0.4567')).toBe('45.67%');
  expect(formatShare('12.5')).toBe('1,250%');
});
