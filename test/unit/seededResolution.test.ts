import { createHash } from 'node:crypto';
import { seededOutcome } from '../../core/domain/seededResolution';

const closes = new Date('2026-12-29T00:00:00.000Z');

describe('the seeded rule a seeded simulated market resolves by', () => {
  it('is the documented draw: the first 32 bits of SHA-256("<key>@<close time>") over 2^32, YES below the fair value', () => {
    const draw = createHash('sha256').update('FED-CUT-DEC@2026-12-29T00:00:00.000Z').digest().readUInt32BE(0) / 2 ** 32;
    // A fair value just above the draw resolves YES, just at it NO.
    expect(seededOutcome('FED-CUT-DEC', closes, String(Math.ceil(draw * 1e6 + 1) / 1e6)).result).toBe('yes');
    expect(seededOutcome('FED-CUT-DEC', closes, String(Math.floor(draw * 1e6) / 1e6)).result).toBe('no');
  });

  it('pays 1 or 0 a YES contract, the same for a question and close time wherever it is computed', () => {
    const first = seededOutcome('CPI-ABOVE-3', closes, '0.41');
    expect(seededOutcome('CPI-ABOVE-3', new Date(closes.getTime()), '0.41')).toEqual(first);
    expect(first.settlementValue!.toFixed()).toBe(first.result === 'yes' ? '1' : '0');
  });

  it('resolves YES about as often as the fair value says, over many questions', () => {
    const questions = Array.from({ length: 20_000 }, (_, i) => `Q-${i}`);
    const yesShare = (fair: string) => questions.filter((q) => seededOutcome(q, closes, fair).result === 'yes').length / questions.length;
    expect(yesShare('0.3')).toBeCloseTo(0.3, 1);
    expect(yesShare('0.85')).toBeCloseTo(0.85, 1);
    expect(yesShare('0')).toBe(0);
    expect(yesShare('1')).toBe(1);
  });
});
