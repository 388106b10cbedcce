import { formatDecimal, signClass } from '../format';

/** A signed decimal as it came, coloured by its sign (a dash for none). */
export function Signed({ value }: { value: string | null | undefined }) {
  return <span className={signClass(value)}>{formatDecimal(value)}</span>;
}
