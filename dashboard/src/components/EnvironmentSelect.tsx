import { ENVIRONMENTS, type Environment } from '../types';
import { Select } from './Field';

/** A `<select>` of the environments, test and live (its caption is the caller's). */
export function EnvironmentSelect({
  id,
  value,
  onChange,
  disabled,
}: {
  id: string;
  value: Environment;
  onChange: (environment: Environment) => void;
  disabled?: boolean;
}) {
  return <Select id={id} value={value} options={ENVIRONMENTS} onValue={onChange} disabled={disabled} />;
}
