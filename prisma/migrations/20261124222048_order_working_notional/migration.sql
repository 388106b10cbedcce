-- AlterTable
-- Computed by PostgreSQL, never written: what a working order (pending, open, partially_filled,
-- unknown: WORKING_STATUSES of core/domain/orderLifecycle.ts) still puts at risk, null once it is
-- done. With the index below, the largest working order of a subaccount (the risk statistics'
-- max_order_notional use) is one index lookup instead of a scan of its working orders.
ALTER TABLE "orders" ADD COLUMN "working_notional" DECIMAL(36,12)
  GENERATED ALWAYS AS (
    CASE WHEN "status" IN ('pending', 'open', 'partially_filled', 'unknown')
         THEN ("quantity" - "filled_quantity") * coalesce("price", 1) END
  ) STORED;

-- CreateIndex
CREATE INDEX "orders_subaccount_id_working_notional_idx" ON "orders"("subaccount_id", "working_notional");
