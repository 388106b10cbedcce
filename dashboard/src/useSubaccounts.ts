import { useCallback, useEffect, useState } from 'react';
import { listAll } from './api';
import { useErrors } from './errors';
import type { Subaccount } from './types';

/** Every subaccount of the chosen environment (for selects and the subaccounts page). */
export function useSubaccounts(): { subaccounts: Subaccount[] | undefined; reload: () => void } {
  const { report } = useErrors();
  const [subaccounts, setSubaccounts] = useState<Subaccount[] | undefined>(undefined);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    listAll<Subaccount>('/v1/subaccounts', controller.signal)
      .then((value) => {
        if (!controller.signal.aborted) setSubaccounts(value);
      })
      .catch(report);
    return () => controller.abort();
  }, [generation, report]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { subaccounts, reload };
}

/** The subaccount a page works on: the one chosen while it still exists, else the first. */
export function useChosenSubaccount(subaccounts: Subaccount[] | undefined): [string, (id: string) => void] {
  const [chosen, setChosen] = useState('');
  const subaccountId = subaccounts?.some((s) => s.id === chosen) ? chosen : (subaccounts?.[0]?.id ?? '');
  return [subaccountId, setChosen];
}
