/** A market as the Gamma fake serves it: Gamma's own JSON fields, with the two it is found by. */
export type GammaMarketRecord = Record<string, unknown> & { readonly id: string; readonly conditionId: string };
