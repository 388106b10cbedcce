import { useSubaccounts } from '../useSubaccounts';
import type { Subaccount } from '../types';
import { SelectField } from './Field';

interface SubaccountSelectProps {
  /** Also the test id. */
  id: string;
  subaccounts: Subaccount[] | undefined;
  value: string;
  onChange: (id: string) => void;
  /** Adds a first option with the value "" (all subaccounts, or none chosen). */
  emptyOption?: string;
  disabled?: boolean;
}

/** A "Subaccount" <select> of the environment's subaccounts; option values are subaccount ids. */
export function SubaccountSelect({ subaccounts, onChange, ...select }: SubaccountSelectProps) {
  const options = (subaccounts ?? []).map((subaccount) => ({ value: subaccount.id, label: `${subaccount.name} (${subaccount.id})` }));
  return <SelectField label="Subaccount" options={options} onValue={onChange} {...select} />;
}

/** A list page's "which subaccount" filter: all subaccounts by default; test id `<name>-subaccount`. */
export function SubaccountFilter({ name, value, onChange }: { name: string; value: string; onChange: (id: string) => void }) {
  const { subaccounts } = useSubaccounts();
  return (
    <SubaccountSelect id={`${name}-subaccount`} subaccounts={subaccounts} value={value} onChange={onChange} emptyOption="All subaccounts" />
  );
}
