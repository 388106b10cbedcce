-- What live Kalshi markets need beyond the simulated catalog (filled by the catalog sync,
-- core/services/liveCatalog.ts): the valid prices as Kalshi lists them (`price_ranges`, YES terms),
-- the series' fee schedule (`fee_type`, `fee_multiplier`) and whether quantities step by 0.01
-- contract (`fractional_trading`). Simulated rows keep nulls and whole contracts: their rules come
-- from the tick size and minimum size as before.
-- AlterTable
ALTER TABLE "markets" ADD COLUMN     "fee_multiplier" DECIMAL(10,6),
ADD COLUMN     "fee_type" TEXT,
ADD COLUMN     "fractional_trading" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "price_ranges" JSONB;
